package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/workers"
)

// checkAddNoqaFlags rejects what --add-noqa cannot be combined with: it
// edits files on disk, so neither standard input nor the fix modes.
func checkAddNoqaFlags(cf *checkFlags, args []string) error {
	if !cf.addNoqa {
		return nil
	}
	switch {
	case len(args) == 1 && args[0] == "-":
		return errors.New("--add-noqa edits files and cannot read standard input")
	case cf.fix || cf.fixOnly || cf.diff:
		return errors.New("--add-noqa cannot be combined with --fix, --fix-only or --diff")
	}
	return nil
}

// addNoqa gives every finding of files a noqa directive, writes each
// changed file back atomically and says how many directives it added, as
// `ruff check --add-noqa` does. A file whose result would not parse or
// would report other findings is left as it is, with an error.
func addNoqa(runner *analyzer.Runner, files, roots []string, stderr, warnings io.Writer) int {
	type result struct {
		orig []byte
		res  analyzer.AddNoqaResult
		err  error
	}
	results := make([]result, len(files))
	workers.Run(runner.Workers, len(files), func(i int) {
		r := &results[i]
		r.orig, r.res, r.err = runner.AddNoqaFile(files[i])
	})
	added, failed := 0, false
	for i, r := range results {
		err := r.err
		if err == nil && r.res.Skipped != "" {
			fmt.Fprintf(warnings, "torchlint: warning: %s: %s\n", files[i], r.res.Skipped)
		}
		if err == nil && r.res.Added > 0 {
			if err = writeBack(files[i], r.orig, r.res.Source, roots); err == nil {
				added += r.res.Added
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
			failed = true
		}
	}
	if added > 0 {
		s := "s"
		if added == 1 {
			s = ""
		}
		fmt.Fprintf(warnings, "Added %d noqa directive%s.\n", added, s)
	}
	if failed {
		return exitError
	}
	return exitClean
}
