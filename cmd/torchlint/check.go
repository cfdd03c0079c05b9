package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// loadConfigs prepares the configuration lookup of a run: the closest
// configuration file of each directory, or one file for all (--config),
// or none (--isolated).
func loadConfigs(cf *checkFlags, cwd string) (*configCache, error) {
	c := newConfigCache(cwd)
	switch {
	case cf.isolated:
		c.fixed = defaultSettings(cwd)
	case cf.config != "":
		s, err := loadConfig(cf.config)
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("%s: no [tool.torchlint] table", cf.config)
		}
		c.fixed = s
	}
	return c, nil
}

// fileRules is the set of rules that run on one file: its configuration's
// selections, the command line's, then its per-file ignores. A file whose
// configuration cannot be read gets the command line's selection alone
// (the error was reported when the file was found).
func fileRules(configs *configCache, cli rules.Selection, path string) map[*analyzer.Rule]bool {
	s, err := configs.forFile(path)
	if err != nil {
		s = configs.defaults
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	set, err := ruleFilter(s, cli, abs)
	if err != nil {
		set, _ = ruleFilter(configs.defaults, cli, abs)
	}
	return set
}

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
func readStdin(d *discoverer, name string) (*stdinSource, error) {
	src, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	in := &stdinSource{path: "-", src: src}
	if name == "" {
		return in, nil
	}
	in.path = name
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	s, err := d.configs.forDir(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	force := s.ForceExclude
	if d.forceExclude != nil {
		force = *d.forceExclude
	}
	in.excluded = force && d.excludedPath(abs, s)
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
