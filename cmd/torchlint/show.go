package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/project"
	"github.com/torchlint/torchlint/rules"
)

// checkShowFlags rejects what --show-settings and --show-files cannot be
// combined with: they lint nothing.
func checkShowFlags(cf *checkFlags, args []string) error {
	if !cf.showSettings && !cf.showFiles {
		return nil
	}
	switch {
	case cf.showSettings && cf.showFiles:
		return errors.New("--show-settings and --show-files cannot be combined")
	case len(args) == 1 && args[0] == "-":
		return errors.New("--show-settings and --show-files take paths, not standard input")
	case cf.fix || cf.fixOnly || cf.diff || cf.addNoqa:
		return errors.New("--show-settings and --show-files cannot be combined with --fix, --fix-only, --diff or --add-noqa")
	}
	return nil
}

// showFiles prints the files a check would lint, one a line, in the
// order it lints them, as `ruff check --show-files` does.
func showFiles(w io.Writer, files []string) error {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// showSettings prints the configuration that governs the first file a
// check would lint, as `ruff check --show-settings` does: the file it
// comes from, the project root and import roots, discovery settings and
// the rules that run on the file.
// srcDirs are the configured import roots the run uses (those of the
// working directory's configuration); d holds the command line's
// discovery flags.
func showSettings(w io.Writer, files []string, configs *project.Configs, cli rules.Selection, d *project.Discoverer, linter *project.Linter, maxFileSize int64) error {
	if len(files) == 0 {
		return errors.New("no Python files found under the paths given")
	}
	path := files[0]
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	s, err := configs.ForDir(filepath.Dir(abs))
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Resolved settings for: %s\n", path)
	if s.Path == "" {
		b.WriteString("Settings path: none (the defaults)\n")
	} else {
		fmt.Fprintf(&b, "Settings path: %s\n", s.Path)
	}
	root := linter.Root(path)
	fmt.Fprintf(&b, "\n# Project\nproject_root = %s\nconfig_root = %s\n", root, s.Root)
	src := []string{root, filepath.Join(root, "src")}
	for _, dir := range configs.SrcFor(root) {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		src = append(src, filepath.Clean(dir))
	}
	writeList(&b, "src", src)

	b.WriteString("\n# Files\n")
	switch {
	case d.ExcludeSet:
		writeList(&b, "exclude", d.Exclude)
	case s.ExcludeSet:
		writeList(&b, "exclude", s.Exclude)
	default:
		b.WriteString("exclude = (the defaults)\n")
	}
	writeList(&b, "extend_exclude", append(append([]string(nil), s.ExtendExclude...), d.ExtendExclude...))
	respect, force := s.RespectGitignore, s.ForceExclude
	if d.RespectGitignore != nil {
		respect = *d.RespectGitignore
	}
	if d.ForceExclude != nil {
		force = *d.ForceExclude
	}
	fmt.Fprintf(&b, "respect_gitignore = %t\nforce_exclude = %t\n", respect, force)
	switch {
	case maxFileSize < 0:
		b.WriteString("max_file_size = none\n")
	default:
		if maxFileSize == 0 {
			maxFileSize = analyzer.DefaultMaxFileSize
		}
		fmt.Fprintf(&b, "max_file_size = %g MB\n", float64(maxFileSize)/(1<<20))
	}

	b.WriteString("\n# Rules\n")
	set := configs.RulesFor(cli, path)
	var enabled []string
	for r := range set {
		enabled = append(enabled, fmt.Sprintf("%s (%s)", r.Code, r.Name))
	}
	sort.Strings(enabled)
	enabled = append([]string{rules.SyntaxError.Code + " (" + rules.SyntaxError.Name + ")", rules.IOError.Code + " (" + rules.IOError.Name + ")"}, enabled...)
	writeList(&b, "rules.enabled", enabled)
	_, err = io.WriteString(w, b.String())
	return err
}

// writeList writes `name = [...]`, one element a line.
func writeList(b *strings.Builder, name string, items []string) {
	if len(items) == 0 {
		fmt.Fprintf(b, "%s = []\n", name)
		return
	}
	fmt.Fprintf(b, "%s = [\n", name)
	for _, it := range items {
		fmt.Fprintf(b, "\t%s,\n", it)
	}
	b.WriteString("]\n")
}
