package analyzer_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/workers"
	"github.com/torchlint/torchlint/rules"
)

// benchFiles loads the Python files under $TORCHLINT_BENCH_DIR (default:
// the fixtures), outside the timed region.
func benchFiles(b *testing.B) (paths []string, srcs [][]byte, size int64) {
	b.Helper()
	dir := os.Getenv("TORCHLINT_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "testdata", "python")
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, walkErr error) error {
		if walkErr != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil //nolint:nilerr // unreadable entries are left out of the benchmark
		}
		src, readErr := os.ReadFile(p)
		if readErr != nil {
			return nil //nolint:nilerr // likewise
		}
		paths = append(paths, p)
		srcs = append(srcs, src)
		size += int64(len(src))
		return nil
	})
	if err != nil || len(paths) == 0 {
		b.Fatalf("no Python files under %s: %v", dir, err)
	}
	return paths, srcs, size
}

// BenchmarkParse is the floor: tree-sitter parsing alone through the
// smacker Go API, on all cores.
func BenchmarkParse(b *testing.B) {
	_, srcs, size := benchFiles(b)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		workers.Run(0, len(srcs), func(i int) {
			if err := analyzer.ParseOnly(srcs[i]); err != nil {
				b.Error(err)
			}
		})
	}
}

// BenchmarkCheck is the whole per-file pipeline with every rule: parse,
// copy, semantic model, dispatching walk, diagnostics.
func BenchmarkCheck(b *testing.B) {
	paths, srcs, size := benchFiles(b)
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		workers.Run(0, len(srcs), func(i int) {
			runner.LintSource(paths[i], srcs[i])
		})
	}
}

// BenchmarkCheckVsParse times, in one run and on the same files, the
// whole pipeline and tree-sitter's parse alone, alternating them, and
// reports the ratio of their medians: how far a check is from its floor.
func BenchmarkCheckVsParse(b *testing.B) {
	paths, srcs, _ := benchFiles(b)
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	var check, parse []time.Duration
	for b.Loop() {
		start := time.Now()
		workers.Run(0, len(srcs), func(i int) {
			if err := analyzer.ParseOnly(srcs[i]); err != nil {
				b.Error(err)
			}
		})
		parse = append(parse, time.Since(start))
		start = time.Now()
		workers.Run(0, len(srcs), func(i int) { runner.LintSource(paths[i], srcs[i]) })
		check = append(check, time.Since(start))
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return ds[len(ds)/2].Seconds()
	}
	b.ReportMetric(median(parse), "parse-s")
	b.ReportMetric(median(check), "check-s")
	b.ReportMetric(median(check)/median(parse), "check/parse")
}
