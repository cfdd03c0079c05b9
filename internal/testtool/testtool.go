// Package testtool is what the tests of several packages share: finding
// the external programs they drive, and writing small projects.
package testtool

import (
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Need returns the path of an external program a test drives: $envVar
// if set, else name on PATH. Outside CI a missing program skips the test
// with how to get it; in CI (whose ./scripts/test installs them) it
// fails.
func Need(t testing.TB, name, envVar, how string) string {
	t.Helper()
	if envVar != "" {
		if p := os.Getenv(envVar); p != "" {
			return p
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (%s); ./scripts/test installs it", name, how)
		}
		t.Skipf("%s is not installed (%s); ./scripts/test installs it", name, how)
	}
	return p
}

// GitAuthor is the environment that lets git commit (and pre-commit's
// try-repo, which commits to a shadow repository) without a configured
// user.
var GitAuthor = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

// Git runs git in dir, as GitAuthor, and fails the test on error.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), GitAuthor...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// ExitCode returns the exit status of a command that ran to its end
// (err from its Run, Output or CombinedOutput); a command that could not
// run fails the test, with what (its name, its output) in the message.
func ExitCode(t testing.TB, err error, what string) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return 0
}

// JUnit decodes a JUnit XML report strictly into v, failing the test when
// it does not parse.
func JUnit(t testing.TB, s string, v any) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	if err := dec.Decode(v); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, s)
	}
}

// WriteTree creates files (slash-separated path → content) under dir.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// LeakyTraining is a training loop that sums its loss without .item()
// (TL101 on the line `total += loss`), for the tests that run hooks and
// installed binaries on a project.
const LeakyTraining = `import torch


def train(model, loader, optimizer, criterion):
    total = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss
    return total
`

// ActionScript is the multi-line bash script (`run: |`) of one step of a
// GitHub Actions YAML file.
type ActionScript struct {
	Step string // the step's name, "" for an unnamed step
	Body string // the script, without its indentation, ending in a newline
}

// ActionScripts returns the multi-line scripts of a workflow or
// action.yml in file order, read from its text.
func ActionScripts(yaml string) []ActionScript {
	lines := strings.Split(yaml, "\n")
	indentOf := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	var out []ActionScript
	step := ""
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if name, ok := strings.CutPrefix(trimmed, "- name: "); ok {
			step = name
			continue
		}
		if trimmed != "run: |" {
			continue
		}
		indent := indentOf(lines[i]) + 2
		var body []string
		for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || indentOf(lines[i+1]) >= indent) {
			i++
			if len(lines[i]) >= indent {
				body = append(body, lines[i][indent:])
			} else {
				body = append(body, "")
			}
		}
		out = append(out, ActionScript{Step: step, Body: strings.Join(body, "\n") + "\n"})
	}
	return out
}

// The fixture annotations: `# want: CODE[(level)] ["regexp"] ...` on a
// line that must be reported (at that confidence level, when one is
// given), `# ok: why` on a look-alike that must stay silent.
var (
	wantComment = regexp.MustCompile(`#\s*want:\s*(.*)$`)
	wantItem    = regexp.MustCompile(`(TL\d{3})(?:\((high|medium|low)\))?(?:\s+"((?:[^"\\]|\\.)*)")?`)
	okComment   = regexp.MustCompile(`#\s*ok:\s*\S`)
)

// Want is one expected finding of a fixture.
type Want struct {
	Line int
	Code string
	RE   *regexp.Regexp // the message must match it; nil: any message
	// Level is the confidence the finding must have; "": any.
	Level string
}

// ParseWants reads the `# want:` annotations of a fixture and counts its
// `# ok:` hard negatives; a malformed annotation fails the test.
func ParseWants(t testing.TB, path string, src []byte) (wants []Want, oks int) {
	t.Helper()
	for i, line := range strings.Split(string(src), "\n") {
		if okComment.MatchString(line) {
			oks++
		}
		m := wantComment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		items := wantItem.FindAllStringSubmatch(m[1], -1)
		if len(items) == 0 {
			t.Fatalf("%s:%d: malformed want comment %q", path, i+1, m[0])
		}
		for _, it := range items {
			w := Want{Line: i + 1, Code: it[1], Level: it[2]}
			if it[3] != "" {
				re, err := regexp.Compile(strings.ReplaceAll(it[3], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: bad regexp: %v", path, i+1, err)
				}
				w.RE = re
			}
			wants = append(wants, w)
		}
	}
	return wants, oks
}
