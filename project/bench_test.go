package project

import (
	"os"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// BenchmarkLintProject lints every Python file under
// $TORCHLINT_BENCH_DIR (default: the fixture projects) as one cold run
// of `torchlint check --no-cache` does: discovery's file list, the
// summaries, the graph and both passes.
func BenchmarkLintProject(b *testing.B) {
	dir := os.Getenv("TORCHLINT_BENCH_DIR")
	if dir == "" {
		dir = projectsDir
	}
	files, err := projectFiles(dir)
	if err != nil || len(files) == 0 {
		b.Fatalf("no Python files under %s: %v", dir, err)
	}
	enabled, err := rules.ResolveLayers(nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		l := &Linter{Runner: analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError), Files: projectFiles}
		l.Lint(files, nil)
	}
}
