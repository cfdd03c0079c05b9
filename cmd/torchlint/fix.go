package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/fsutil"
)

// writeBack replaces the file at path, which held orig when it was read,
// with fixed. It refuses a file that changed on disk since, and a symlink
// that leads out of the tree it was found in (roots are the paths named
// on the command line); it writes through a symlink inside the tree to
// its target, keeps the file's mode, and reads the result back.
func writeBack(path string, orig, fixed []byte, roots []string) error {
	target, err := writeTarget(path, roots)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return fmt.Errorf("%s: %w", path, fsutil.UnwrapPath(err))
	}
	now, err := os.ReadFile(target)
	if err != nil {
		return fmt.Errorf("%s: %w", path, fsutil.UnwrapPath(err))
	}
	if !bytes.Equal(now, orig) {
		return fmt.Errorf("%s: changed on disk while it was being fixed; left as it is", path)
	}
	if err := fsutil.WriteFileAtomic(target, fixed, info.Mode().Perm()); err != nil {
		return err
	}
	back, err := os.ReadFile(target)
	if err != nil {
		return fmt.Errorf("%s: reading back the fixed file: %w", path, fsutil.UnwrapPath(err))
	}
	if !bytes.Equal(back, fixed) {
		return fmt.Errorf("%s: the fixed file does not read back as written", path)
	}
	return nil
}

// writeTarget resolves path to the file to write. A symlink is followed
// only when its target lies inside the root it was discovered under.
func writeTarget(path string, roots []string) (string, error) {
	li, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, fsutil.UnwrapPath(err))
	}
	if li.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, fsutil.UnwrapPath(err))
	}
	root := rootOf(path, roots)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, fsutil.UnwrapPath(err))
	}
	absTarget, err1 := filepath.Abs(target)
	absRoot, err2 := filepath.Abs(realRoot)
	if err := errors.Join(err1, err2); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if rel, err := filepath.Rel(absRoot, absTarget); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: a symlink to %s, outside %s; not fixed", path, target, root)
	}
	return target, nil
}

// rootOf returns the command-line path that path was found under: the
// longest directory named that contains it, or path's own directory for a
// file named directly.
func rootOf(path string, roots []string) string {
	best := ""
	clean := filepath.Clean(path)
	for _, r := range roots {
		r = filepath.Clean(r)
		if r == clean {
			return filepath.Dir(clean)
		}
		prefix := r + string(filepath.Separator)
		if r == "." && !filepath.IsAbs(clean) && !strings.HasPrefix(clean, "..") {
			prefix = ""
		}
		if (prefix == "" || strings.HasPrefix(clean, prefix)) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return filepath.Dir(clean)
	}
	return best
}

// writeDiff writes a unified diff of every file the fixes would change.
func writeDiff(w io.Writer, rep *report, fixes []analyzer.FileFix) error {
	ew := &errWriter{w: w}
	for i := range fixes {
		ff := &fixes[i]
		if ff.Original == nil || bytes.Equal(ff.Original, ff.Source) {
			continue
		}
		name := rep.displayPath(ff.Path)
		fmt.Fprint(ew, udiff.Unified(name, name, string(ff.Original), string(ff.Source)))
		fmt.Fprintln(ew)
	}
	return ew.err
}

// writeFixedSummary lists the fixes applied per file and rule, as Ruff's
// --show-fixes does.
func writeFixedSummary(w io.Writer, rep *report, fixes []analyzer.FileFix) {
	total := 0
	for i := range fixes {
		total += len(fixes[i].Applied)
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(w, "\nFixed %s:\n", plural(total, "error", "errors"))
	for i := range fixes {
		ff := &fixes[i]
		if len(ff.Applied) == 0 {
			continue
		}
		fmt.Fprintf(w, "- %s:\n", rep.displayPath(ff.Path))
		counts := map[*analyzer.Rule]int{}
		for _, r := range ff.Applied {
			counts[r]++
		}
		rules := make([]*analyzer.Rule, 0, len(counts))
		for r := range counts {
			rules = append(rules, r)
		}
		sort.Slice(rules, func(a, b int) bool { return rules[a].Code < rules[b].Code })
		for _, r := range rules {
			fmt.Fprintf(w, "    %d × %s (%s)\n", counts[r], r.Code, r.Name)
		}
	}
}
