package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/rules"
)

// ruleIndex is docs/rules/README.md: a table of every rule.
func ruleIndex() string {
	var b strings.Builder
	b.WriteString("# torchlint rules\n\nGenerated from the rule definitions in `rules/` by `go test ./cmd/torchlint -run TestRuleDocs -update`; do not edit.\n\n")
	b.WriteString("| Code | Name | Summary | Fix | Default | Shown from |\n|---|---|---|---|---|---|\n")
	for _, r := range rules.All {
		fix, on := "", "on"
		if r.Fixable {
			fix = "yes"
		}
		if r.Preview {
			on = "off"
		}
		fmt.Fprintf(&b, "| [%s](%s.md) | `%s` | %s | %s | %s | %s |\n", r.Code, r.Code, r.Name, strings.ReplaceAll(r.Summary, "|", `\|`), fix, on, r.ShownFrom())
	}
	return b.String()
}

// TestRuleDocs keeps docs/rules/ in step with the rules: one page per rule,
// the same text `torchlint rule CODE` prints, and an index. Run with
// -update to regenerate them.
func TestRuleDocs(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "docs", "rules")
	want := map[string]string{"README.md": ruleIndex()}
	for _, r := range rules.All {
		want[r.Code+".md"] = RuleMarkdown(r)
		if !strings.HasSuffix(r.URL(), "/docs/rules/"+r.Code+".md") {
			t.Errorf("%s: URL %s does not point at its page", r.Code, r.URL())
		}
	}
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range want {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/torchlint -run TestRuleDocs -update)", err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok {
			t.Errorf("docs/rules/%s belongs to no rule; remove it", e.Name())
		}
	}
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != text {
			t.Errorf("docs/rules/%s is out of date (run go test ./cmd/torchlint -run TestRuleDocs -update)", name)
		}
	}
}
