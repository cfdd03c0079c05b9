package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEcosystemScript runs scripts/ecosystem over the small corpus in
// testdata/ecosystem with the checkout on both sides: both builds are the
// same, so the report must count the same findings on each side and list
// no change. It also runs ShellCheck over the script.
func TestEcosystemScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds torchlint twice")
	}
	shellcheck := needTool(t, "shellcheck", "", "Debian package shellcheck")
	needTool(t, "jq", "", "Debian package jq")
	needTool(t, "git", "", "Debian package git")
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "ecosystem")
	if out, err := exec.Command(shellcheck, script).CombinedOutput(); err != nil {
		t.Fatalf("shellcheck scripts/ecosystem: %v\n%s", err, out)
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout")
	}

	out := t.TempDir()
	cmd := exec.Command(script, "--base", "worktree", "--head", "worktree",
		"--corpus", filepath.Join(root, "testdata", "ecosystem"), "--out", out, "--extend-select", "TL203")
	cmd.Dir = root
	stdout, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/ecosystem: %v\n%s", err, stdout)
	}
	report := string(stdout)
	for _, want := range []string{
		"| notebook-repo |", "| train-loop    |",
		"No findings added or removed.",
		"extend-select: TL203",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	// Every row of the two tables: the same count on both sides, nothing
	// added or removed.
	row := regexp.MustCompile(`(?m)^\| (\S+) +\| +(\d+) \| +(\d+) \| +(\S+) \| +(\S+) \|$`)
	rows := row.FindAllStringSubmatch(report, -1)
	if len(rows) < 4 {
		t.Fatalf("expected the rule and repository tables, got %d rows:\n%s", len(rows), report)
	}
	for _, r := range rows {
		if r[2] != r[3] || r[4] != "0" || r[5] != "0" {
			t.Errorf("row %q shows a change", r[0])
		}
	}
	if !regexp.MustCompile(`(?m)^\| total +\| +[1-9]\d* \|`).MatchString(report) {
		t.Errorf("no findings counted on the corpus:\n%s", report)
	}
	for _, f := range []string{"base.jsonl", "head.jsonl", "report.md"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			t.Errorf("%s is empty", f)
		}
	}
}
