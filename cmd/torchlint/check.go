package main

import (
	"fmt"
	"io"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/project"
)

// flagPair turns a --x / --no-x pair into an override: nil when neither
// is given; --no-x wins over --x.
func flagPair(yes, no bool) *bool {
	switch {
	case no:
		v := false
		return &v
	case yes:
		v := true
		return &v
	}
	return nil
}

// stdinSource is a source read from standard input.
type stdinSource struct {
	path     string // --stdin-filename, or "-"
	src      []byte
	excluded bool // --force-exclude and an exclude pattern match the name
}

// readStdin reads standard input. With --stdin-filename, the name decides
// the configuration, the per-file ignores and, with --force-exclude,
// whether the source is linted at all.
func readStdin(d *project.Discoverer, name string) (*stdinSource, error) {
	src, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	in := &stdinSource{path: "-", src: src}
	if name == "" {
		return in, nil
	}
	in.path = name
	if in.excluded, err = d.ForceExcluded(name); err != nil {
		return nil, err
	}
	return in, nil
}

func (in *stdinSource) lint(r *analyzer.Runner) []analyzer.Diagnostic {
	if in.excluded {
		return nil
	}
	return r.LintSource(in.path, in.src)
}

func (in *stdinSource) fix(r *analyzer.Runner, unsafe bool) analyzer.FileFix {
	ff := analyzer.FileFix{Path: in.path, Original: in.src}
	if in.excluded {
		ff.Source = in.src
		return ff
	}
	ff.FixResult = r.FixSource(in.path, in.src, unsafe)
	return ff
}

// megabytes converts a size limit in megabytes to bytes; a negative limit
// means none.
func megabytes(mb float64) int64 {
	if mb < 0 {
		return -1
	}
	return int64(mb * (1 << 20))
}
