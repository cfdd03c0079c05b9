package project

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/internal/testtool"
	"github.com/torchlint/torchlint/rules"
)

// writeTree creates files (path → content) under dir.
var writeTree = testtool.WriteTree

func enabledCodes(t *testing.T, s *Settings, cli rules.Selection, file string) string {
	t.Helper()
	set, err := ruleFilter(s, cli, file)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for r := range set {
		codes = append(codes, r.Code)
	}
	sort.Strings(codes)
	return strings.Join(codes, ",")
}

func TestConfigErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, file, content, want string
	}{
		{"unknown key", "pyproject.toml", "[project]\nname = \"x\"\n\n[tool.black]\nline-length = 99\n\n[tool.torchlint]\nselect = [\"TL1\"]\nbogus = 1\n",
			"pyproject.toml:9: unknown key `bogus`"},
		{"wrong type", "torchlint.toml", "\nselect = \"TL101\"\n", "torchlint.toml:2: `select`: expected an array of strings"},
		{"wrong element type", "pyproject.toml", "[tool.torchlint]\nignore = [\"TL101\", 3]\n", "pyproject.toml:2: `ignore`: expected an array of strings"},
		{"unknown code", "pyproject.toml", "[tool.torchlint]\n\nextend-select = [\"TL999\"]\n", "pyproject.toml:3: unknown rule selector \"TL999\""},
		{"unknown code in per-file-ignores", ".torchlint.toml", "[per-file-ignores]\n\"tests/*.py\" = [\"TL1\"]\n\"x.py\" = [\"nope\"]\n", ".torchlint.toml:3: unknown rule selector \"nope\""},
		{"bad bool", "torchlint.toml", "respect-gitignore = \"yes\"\n", "torchlint.toml:1: `respect-gitignore`: expected true or false"},
		{"bad TOML", "torchlint.toml", "select = [\"TL1\"\n", "torchlint.toml:1:"},
		{"extend cycle", "torchlint.toml", "extend = \"torchlint.toml\"\n", "`extend` forms a cycle"},
		{"extend missing", "torchlint.toml", "extend = \"base.toml\"\n", "base.toml: cannot read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{c.file: c.content})
			_, err := loadConfig(filepath.Join(dir, c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v; want it to contain %q", err, c.want)
			}
		})
	}
}

func TestConfigDiscoveryAndLayers(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pyproject.toml":              "[tool.torchlint]\nselect = [\"TL1\", \"TL4\"]\nignore = [\"TL403\"]\n\n[tool.torchlint.per-file-ignores]\n\"__init__.py\" = [\"TL101\"]\n\"scripts/*.py\" = [\"TL4\"]\n\"!src/**\" = [\"TL103\"]\n",
		"src/pkg/pyproject.toml":      "[project]\nname = \"no-table-here\"\n",
		"src/pkg/a.py":                "",
		"other/torchlint.toml":        "extend = \"../base.toml\"\nextend-select = [\"TL301\"]\n",
		"other/pyproject.toml":        "[tool.torchlint]\nselect = [\"TL201\"]\n",
		"base.toml":                   "select = [\"TL2\"]\nignore = [\"TL202\"]\n",
		"fresh/.torchlint.toml":       "select = []\nextend-select = [\"prefer-inference-mode\"]\n",
		"fresh/torchlint.toml":        "select = [\"ALL\"]\n",
		"scripts/run.py":              "",
		"scripts/__init__.py":         "",
		"src/pkg/sub/__init__.py":     "",
		"src/pkg/sub/deeper/model.py": "",
	})
	c := NewConfigs(dir)
	get := func(p string) *Settings {
		s, err := c.forFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	top := get("src/pkg/a.py") // the pyproject.toml without a table is skipped
	if top.Path != filepath.Join(dir, "pyproject.toml") {
		t.Fatalf("src/pkg/a.py governed by %q, want the top pyproject.toml", top.Path)
	}
	none := rules.Selection{}
	for _, c := range []struct{ file, want string }{
		{"src/pkg/a.py", "TL101,TL102,TL103,TL401,TL402"},
		{"src/pkg/sub/__init__.py", "TL102,TL103,TL401,TL402"},
		{"scripts/run.py", "TL101,TL102"}, // TL4 by the pattern, TL103 by the negated one
	} {
		if got := enabledCodes(t, top, none, filepath.Join(dir, c.file)); got != c.want {
			t.Errorf("%s: %s, want %s", c.file, got, c.want)
		}
	}
	// Through Configs, which shares the rule sets of files with the same
	// settings and matching per-file ignores: the same answers, each
	// asked twice, without command-line flags, then with.
	cli := rules.Selection{ExtendSelect: []string{"TL202"}, Ignore: []string{"TL301"}}
	cases := []struct{ file, want, withCLI string }{
		{"src/pkg/a.py", "TL101,TL102,TL103,TL401,TL402", "TL101,TL102,TL103,TL202,TL401,TL402"},
		{"src/pkg/sub/__init__.py", "TL102,TL103,TL401,TL402", "TL102,TL103,TL202,TL401,TL402"},
		{"scripts/run.py", "TL101,TL102", "TL101,TL102,TL202"},
		{"scripts/__init__.py", "TL102", "TL102,TL202"},
		{"other/x.py", "TL201,TL301", "TL201,TL202"},
	}
	for _, sel := range []rules.Selection{none, cli} {
		for range 2 {
			for _, f := range cases {
				want := f.want
				if sel.Ignore != nil {
					want = f.withCLI
				}
				if got := RuleKey(c.RulesFor(sel, filepath.Join(dir, f.file))); got != want {
					t.Errorf("RulesFor %s, %+v: %s, want %s", f.file, sel, got, want)
				}
			}
		}
	}
	other := get("other/x.py") // torchlint.toml wins over pyproject.toml in one folder
	if got := enabledCodes(t, other, none, filepath.Join(dir, "other/x.py")); got != "TL201,TL301" {
		t.Errorf("other/x.py (extends base.toml): %s, want TL201,TL301", got)
	}
	if got := enabledCodes(t, other, cli, filepath.Join(dir, "other/x.py")); got != "TL201,TL202" {
		t.Errorf("with command-line flags on top: %s, want TL201,TL202", got)
	}
	fresh := get("fresh/y.py") // .torchlint.toml wins over torchlint.toml
	if got := enabledCodes(t, fresh, none, filepath.Join(dir, "fresh/y.py")); got != "TL203" {
		t.Errorf("select = [] then extend-select: %s, want TL203", got)
	}
	if got := enabledCodes(t, defaultSettings(dir), rules.Selection{Select: []string{"TL3"}}, filepath.Join(dir, "x.py")); got != "TL301,TL302" {
		t.Errorf("defaults with --select TL3: %s", got)
	}
}

func TestConfigKeyLineOfQuotedKeys(t *testing.T) {
	data := []byte("[tool.torchlint]\nselect = [\"TL1\"]\n\n[tool.torchlint.per-file-ignores]\n'tests/*.py' = [\"TL101\"]\n\"a b.py\" = [\"x\"]\n")
	if got := keyLine(data, "pyproject.toml", "per-file-ignores", "a b.py"); got != 6 {
		t.Errorf("line of a quoted key = %d, want 6", got)
	}
	if got := keyLine(data, "pyproject.toml", "select"); got != 2 {
		t.Errorf("line of select = %d, want 2", got)
	}
}
