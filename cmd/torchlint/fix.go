package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/fsutil"
)

// applyFixResults writes the fixed files (when write is set), warns about
// fixes that were dropped, and returns the failures. A file that cannot
// be written keeps its original findings and no applied fixes.
func applyFixResults(runner *analyzer.Runner, fixes []analyzer.FileFix, roots []string, write bool, stderr io.Writer) []error {
	var failures []error
	for i := range fixes {
		ff := &fixes[i]
		if ff.Err != nil {
			failures = append(failures, ff.Err)
			continue
		}
		for _, p := range ff.Problems {
			sep := ": "
			if p != "" && p[0] >= '0' && p[0] <= '9' {
				sep = ":" // a line:column location
			}
			fmt.Fprintf(stderr, "torchlint: warning: %s%s%s\n", ff.Path, sep, p)
		}
		if !write || len(ff.Applied) == 0 || bytes.Equal(ff.Original, ff.Source) {
			continue
		}
		if err := writeBack(ff.Path, ff.Original, ff.Source, roots); err != nil {
			failures = append(failures, err)
			ff.Applied, ff.Source = nil, ff.Original
			ff.Remaining = runner.LintSource(ff.Path, ff.Original)
		}
	}
	return failures
}

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
