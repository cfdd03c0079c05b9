package project

import (
	"os"
	"strconv"
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

// BenchmarkRelintEdited lints two files of $TORCHLINT_BENCH_DIR as the
// language server does (a memory store, the project's other files read
// from disk), then, per iteration, lints them again after an edit of the
// first: the project lint that follows an editor's change.
func BenchmarkRelintEdited(b *testing.B) {
	dir := os.Getenv("TORCHLINT_BENCH_DIR")
	if dir == "" {
		dir = projectsDir
	}
	files, err := projectFiles(dir)
	if err != nil || len(files) < 2 {
		b.Fatalf("too few Python files under %s: %v", dir, err)
	}
	enabled, err := rules.ResolveLayers(nil)
	if err != nil {
		b.Fatal(err)
	}
	l := &Linter{Runner: analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError), Files: projectFiles, Store: NewMemoryStore()}
	open := files[:2]
	src, err := os.ReadFile(open[0])
	if err != nil {
		b.Fatal(err)
	}
	l.Lint(open, nil)
	n := 0
	for b.Loop() {
		n++
		edited := append(append([]byte{}, src...), []byte("\n# edit "+strconv.Itoa(n)+"\n")...)
		l.Lint(open, map[string][]byte{open[0]: edited})
	}
}
