package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// defaultExcludes are the directory names Ruff skips by default.
var defaultExcludes = map[string]bool{
	".bzr": true, ".direnv": true, ".eggs": true, ".git": true, ".git-rewrite": true, ".hg": true,
	".ipynb_checkpoints": true, ".mypy_cache": true, ".nox": true, ".pants.d": true, ".pyenv": true,
	".pytest_cache": true, ".pytype": true, ".ruff_cache": true, ".svn": true, ".tox": true,
	".venv": true, ".vscode": true, "__pypackages__": true, "_build": true, "buck-out": true,
	"dist": true, "node_modules": true, "site-packages": true, "venv": true, "__pycache__": true,
	".torchlint_cache": true,
}

// discover expands the paths named on the command line into the Python
// files to lint: a file named explicitly is always linted; a directory is
// walked for *.py files outside the default excludes. A path that does
// not exist is an error; a directory that cannot be read is reported as a
// warning and skipped.
func discover(paths []string, warn func(string)) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such file or directory", root)
			}
			return nil, fmt.Errorf("%s: %w", root, unwrapPath(err))
		}
		if !info.IsDir() {
			add(filepath.Clean(root))
			continue
		}
		var files []string
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				warn(fmt.Sprintf("%s: %v; skipped", path, unwrapPath(err)))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && defaultExcludes[d.Name()] {
					return fs.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(d.Name(), ".py") && d.Type()&fs.ModeType == 0 {
				files = append(files, path)
			} else if strings.HasSuffix(d.Name(), ".py") && d.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
					files = append(files, path)
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", root, err)
		}
		sort.Strings(files)
		for _, f := range files {
			add(f)
		}
	}
	return out, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
