package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/fsutil"
	"github.com/torchlint/torchlint/project"
	"github.com/torchlint/torchlint/report"
	"github.com/torchlint/torchlint/rules"
)

type checkFlags struct {
	format       string
	outputFile   string
	selectRules  []string
	extendSelect []string
	ignore       []string

	fix, noFix, unsafeFixes, noUnsafeFixes, fixOnly, diff, showFixes bool

	statistics, exitZero, quiet bool
	color                       string

	config, stdinFilename                                              string
	isolated                                                           bool
	exclude, extendExclude                                             []string
	respectGitignore, noRespectGitignore, forceExclude, noForceExclude bool

	confidence string

	noCache       bool
	cacheDir      string
	maxFileSizeMB float64

	addNoqa, showSettings, showFiles bool
}

// stdin is where `torchlint check -` reads the source from.
var stdin io.Reader = os.Stdin

func runCheck(args []string, stdout, stderr io.Writer) int {
	var cf checkFlags
	fs := pflag.NewFlagSet("torchlint check", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cf.format, "output-format", "full", "output format: "+strings.Join(report.Formats(), ", "))
	fs.StringVarP(&cf.outputFile, "output-file", "o", "", "write the report to this file instead of standard output")
	fs.StringSliceVar(&cf.selectRules, "select", nil, "rules to enable, by code, prefix (TL1) or name; replaces the default set")
	fs.StringSliceVar(&cf.extendSelect, "extend-select", nil, "rules to enable in addition to the selected ones")
	fs.StringSliceVar(&cf.ignore, "ignore", nil, "rules to disable, by code, prefix or name")
	fs.BoolVar(&cf.fix, "fix", false, "apply fixes to resolve findings (safe fixes only, unless --unsafe-fixes)")
	fs.BoolVar(&cf.noFix, "no-fix", false, "do not apply fixes (overrides --fix, --fix-only and --diff)")
	fs.BoolVar(&cf.unsafeFixes, "unsafe-fixes", false, "include fixes that may change the program's behaviour")
	fs.BoolVar(&cf.noUnsafeFixes, "no-unsafe-fixes", false, "exclude unsafe fixes (overrides --unsafe-fixes)")
	fs.BoolVar(&cf.fixOnly, "fix-only", false, "apply fixes and report only what was fixed; implies --fix")
	fs.BoolVar(&cf.diff, "diff", false, "write a diff of the fixes to standard output instead of changing files; implies --fix-only")
	fs.BoolVar(&cf.showFixes, "show-fixes", false, "list the fixes applied, per file and rule")
	fs.StringVar(&cf.confidence, "confidence", "", "show findings of this confidence or higher: high, medium or low (default: the configured `confidence`, else each rule's own level)")
	fs.BoolVar(&cf.statistics, "statistics", false, "show the number of findings per rule instead of the findings")
	fs.BoolVar(&cf.exitZero, "exit-zero", false, "exit with status 0 even when there are findings (errors still exit 2)")
	fs.BoolVarP(&cf.quiet, "quiet", "q", false, "print the findings only: no summary, no warnings")
	fs.StringVar(&cf.color, "color", "auto", "colour the text formats: auto, always or never (auto honours NO_COLOR and FORCE_COLOR)")
	fs.StringVar(&cf.config, "config", "", "use this configuration file (pyproject.toml or torchlint.toml) for every file, instead of the closest one")
	fs.BoolVar(&cf.isolated, "isolated", false, "ignore all configuration files")
	fs.StringSliceVar(&cf.exclude, "exclude", nil, "glob patterns of files and folders to skip, replacing the configured and default excludes")
	fs.StringSliceVar(&cf.extendExclude, "extend-exclude", nil, "glob patterns to skip in addition to the excludes")
	fs.BoolVar(&cf.respectGitignore, "respect-gitignore", false, "skip what .gitignore files and .git/info/exclude ignore (the default)")
	fs.BoolVar(&cf.noRespectGitignore, "no-respect-gitignore", false, "do not read .gitignore files")
	fs.BoolVar(&cf.forceExclude, "force-exclude", false, "apply the excludes to files named on the command line too")
	fs.BoolVar(&cf.noForceExclude, "no-force-exclude", false, "do not apply the excludes to files named on the command line")
	fs.BoolVar(&cf.noCache, "no-cache", false, "neither read nor write the cache")
	fs.StringVar(&cf.cacheDir, "cache-dir", "", "the cache folder (default: $TORCHLINT_CACHE_DIR, else .torchlint_cache)")
	fs.Float64Var(&cf.maxFileSizeMB, "max-file-size", 0, "skip, with a diagnostic, files larger than this many megabytes (default 10; 0 keeps the configured or default limit, a negative value lifts it)")
	fs.BoolVar(&cf.addNoqa, "add-noqa", false, "add a `# noqa: CODE` directive to every line with a finding, merged into any directive already there")
	fs.BoolVar(&cf.showSettings, "show-settings", false, "print the configuration that applies to the first file a check would lint, and exit")
	fs.BoolVar(&cf.showFiles, "show-files", false, "print the files a check would lint, one a line, and exit")
	fs.StringVar(&cf.stdinFilename, "stdin-filename", "", "the name of the file read from standard input (with -), for messages, configuration and per-file ignores")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: torchlint check [flags] [PATH...]\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	if !slices.Contains(report.Formats(), cf.format) {
		fmt.Fprintf(stderr, "torchlint: error: unknown output format %q (expected one of: %s)\n", cf.format, strings.Join(report.Formats(), ", "))
		return exitError
	}
	if err := checkAddNoqaFlags(&cf, fs.Args()); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	if err := checkShowFlags(&cf, fs.Args()); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	if err := checkOutputFlags(&cf); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	warnings := stderr
	if cf.quiet {
		warnings = io.Discard
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	configs, err := project.LoadConfigs(cwd, project.ConfigOptions{File: cf.config, Isolated: cf.isolated})
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	var cliConfidence analyzer.Confidence
	if cf.confidence != "" {
		if cliConfidence, err = analyzer.ParseConfidence(cf.confidence); err != nil {
			fmt.Fprintf(stderr, "torchlint: error: --confidence: %v\n", err)
			return exitError
		}
	}
	cli := rules.Selection{Select: cf.selectRules, ExtendSelect: cf.extendSelect, Ignore: cf.ignore, SelectSet: fs.Changed("select")}
	if _, err := rules.ResolveLayers([]rules.Selection{cli}); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	// The rules of each file, worked out once for both the runner and the
	// cache key.
	var ruleSets sync.Map
	rulesOf := func(path string) map[*analyzer.Rule]bool {
		if set, ok := ruleSets.Load(path); ok {
			return set.(map[*analyzer.Rule]bool)
		}
		set := configs.RulesFor(cli, path)
		ruleSets.Store(path, set)
		return set
	}
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	runner.RulesFor = func(path string) func(*analyzer.Rule) bool {
		set := rulesOf(path)
		return func(r *analyzer.Rule) bool { return set[r] }
	}
	runner.MinConfidence = func(path string) analyzer.Confidence {
		if cliConfidence != 0 {
			return cliConfidence
		}
		return configs.ConfidenceFor(path)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	d := &project.Discoverer{
		Configs:          configs,
		Exclude:          project.Anchor(cf.exclude, cwd),
		ExcludeSet:       fs.Changed("exclude"),
		ExtendExclude:    project.Anchor(cf.extendExclude, cwd),
		RespectGitignore: flagPair(cf.respectGitignore, cf.noRespectGitignore),
		ForceExclude:     flagPair(cf.forceExclude, cf.noForceExclude),
		Warn:             func(msg string) { fmt.Fprintf(warnings, "torchlint: warning: %s\n", msg) },
	}
	// The size limit is that of each file's configuration, as its rules
	// are, unless the command line sets one for all.
	runner.MaxFileSizeFor = func(path string) int64 {
		abs, err := filepath.Abs(path)
		if err != nil {
			return 0
		}
		if s, err := configs.ForDir(filepath.Dir(abs)); err == nil {
			return megabytes(s.MaxFileSizeMB)
		}
		return 0
	}
	if cf.maxFileSizeMB != 0 {
		runner.MaxFileSize = megabytes(cf.maxFileSizeMB)
	}
	// `-` reads one source from standard input, named by --stdin-filename.
	var in *stdinSource
	var files []string
	if len(paths) == 1 && paths[0] == "-" {
		if in, err = readStdin(d, cf.stdinFilename); err != nil {
			fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
			return exitError
		}
	} else if files, err = d.Discover(paths); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	// Each file is linted with the facts of its project: the Python files
	// under its root, found as discovery finds them.
	linter := &project.Linter{Runner: runner, Named: paths, Files: func(root string) ([]string, error) {
		quiet := *d
		quiet.Warn = func(string) {}
		return quiet.Discover([]string{root})
	}, Src: configs.SrcFor}
	if cf.showFiles || cf.showSettings {
		var err error
		if cf.showSettings {
			limit := runner.MaxFileSize
			if limit == 0 && len(files) > 0 {
				limit = runner.MaxFileSizeFor(files[0])
			}
			err = showSettings(stdout, files, configs, cli, d, linter, limit)
		} else {
			err = showFiles(stdout, files)
		}
		if err != nil {
			fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
			return exitError
		}
		return exitClean
	}
	unsafe := cf.unsafeFixes && !cf.noUnsafeFixes
	rep := &report.Report{Files: len(files), Cwd: cwd, Unsafe: unsafe, Quiet: cf.quiet, Version: versionString(),
		Color: report.IsText(cf.format) && report.UseColor(cf.color, stdout, cf.outputFile != "", os.Getenv)}
	var failures []error
	var fixes []analyzer.FileFix
	fixing := (cf.fix || cf.fixOnly || cf.diff) && !cf.noFix
	if cf.addNoqa {
		runner.Facts = linter.Facts(files, nil)
		return addNoqa(runner, files, paths, stderr, warnings)
	}
	switch {
	case in != nil && fixing:
		runner.Facts = in.facts(linter)
		fixes = []analyzer.FileFix{in.fix(runner, unsafe)}
	case in != nil:
		runner.Facts = in.facts(linter)
		rep.Diagnostics = in.lint(runner)
	case fixing:
		// Fixes see the facts of the projects as they were before fixing.
		runner.Facts = linter.Facts(files, nil)
		fixes = runner.FixFiles(files, unsafe)
		failures = applyFixResults(runner, fixes, paths, !cf.diff, warnings)
	default:
		var cache *project.Cache
		if !cf.noCache {
			dir := project.CacheDir(cf.cacheDir)
			if cache, err = project.OpenCache(dir, versionString(), func(path string) string { return project.RuleKey(rulesOf(path)) }); err != nil {
				fmt.Fprintf(warnings, "torchlint: warning: %v; running without a cache\n", err)
			} else {
				runner.Cache = cache // notebooks
				linter.Store = cache
			}
		}
		rep.Diagnostics, failures = linter.Lint(files, nil)
		analyzer.SortDiagnostics(rep.Diagnostics)
		if cache != nil {
			if err := cache.Save(); err != nil {
				fmt.Fprintf(warnings, "torchlint: warning: %v\n", err)
			}
		}
	}
	if fixing {
		rep.FixMode = true
		for i := range fixes {
			rep.Diagnostics = append(rep.Diagnostics, fixes[i].Remaining...)
			rep.Fixed += len(fixes[i].Applied)
		}
		analyzer.SortDiagnostics(rep.Diagnostics)
	}
	// A rule that failed on a file is an internal error, not a finding.
	var crashes []error
	rep.Diagnostics, crashes = analyzer.SplitCrashes(rep.Diagnostics)
	failures = append(failures, crashes...)
	rep.Errors = len(failures)
	all := len(rep.Diagnostics)
	rep.Diagnostics = analyzer.Unsuppressed(rep.Diagnostics)
	rep.Suppressed = all - len(rep.Diagnostics)
	rep.Diagnostics, rep.Hidden, rep.Lowest = analyzer.Confident(rep.Diagnostics, runner.MinConfidence)
	if in != nil && fixing && !cf.diff {
		// As with Ruff, the fixed source goes to standard output and the
		// report to standard error.
		if _, err := stdout.Write(fixes[0].Source); err != nil {
			fmt.Fprintf(stderr, "torchlint: error: write output: %v\n", err)
			return exitError
		}
		stdout = stderr
		rep.Color = report.IsText(cf.format) && report.UseColor(cf.color, stderr, cf.outputFile != "", os.Getenv)
	}
	var buf bytes.Buffer
	var err2 error
	switch {
	case fixing && cf.diff:
		err2 = report.WriteDiff(&buf, rep, fixes)
	case fixing && (cf.fixOnly || cf.diff):
		switch {
		case cf.quiet:
		case rep.Fixed == 0:
			fmt.Fprintln(&buf, "No errors fixed.")
		default:
			fmt.Fprintf(&buf, "Fixed %s.\n", report.Plural(rep.Fixed, "error", "errors"))
		}
	case cf.statistics:
		err2 = report.WriteStatistics(&buf, rep, cf.format)
	default:
		err2 = report.Write(&buf, cf.format, rep)
	}
	if err2 != nil {
		fmt.Fprintf(stderr, "torchlint: error: write %s output: %v\n", cf.format, err2)
		return exitError
	}
	if cf.showFixes && fixing && !cf.diff {
		// Text formats carry the list; machine formats keep standard
		// output parseable, so it goes to standard error.
		if report.IsText(cf.format) || cf.fixOnly {
			report.WriteFixSummary(&buf, rep, fixes)
		} else {
			report.WriteFixSummary(stderr, rep, fixes)
		}
	}
	if cf.outputFile != "" {
		if err := fsutil.WriteFileAtomic(cf.outputFile, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
			return exitError
		}
	} else if _, err := stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: write output: %v\n", err)
		return exitError
	}
	for _, f := range failures {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", f)
	}
	switch {
	case len(failures) > 0:
		return exitError
	case fixing && cf.diff:
		changed := 0
		for i := range fixes {
			changed += len(fixes[i].Applied)
		}
		if changed > 0 {
			fmt.Fprintf(warnings, "Would fix %s.\n", report.Plural(changed, "error", "errors"))
			return findingsExit(cf.exitZero)
		}
		return exitClean
	case fixing && cf.fixOnly:
		return exitClean
	case len(rep.Diagnostics) > 0:
		return findingsExit(cf.exitZero)
	}
	return exitClean
}

// findingsExit is the exit code of a run with findings: 1, or 0 with
// --exit-zero.
func findingsExit(exitZero bool) int {
	if exitZero {
		return exitClean
	}
	return exitFindings
}

// checkOutputFlags rejects --color and --statistics values that the
// output cannot honour, before anything is linted or fixed.
func checkOutputFlags(cf *checkFlags) error {
	switch cf.color {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("invalid --color %q (expected auto, always or never)", cf.color)
	}
	if cf.statistics && !report.HasStatistics(cf.format) {
		return fmt.Errorf("--statistics works with the full, concise and json output formats, not %s", cf.format)
	}
	return nil
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

// facts gives the source read from standard input the facts of the
// project its --stdin-filename places it in, with the source standing in
// for the file on disk; without a name it is linted alone.
func (in *stdinSource) facts(l *project.Linter) func(string) analyzer.Facts {
	if in.path == "-" || in.excluded {
		return nil
	}
	return l.Facts([]string{in.path}, map[string][]byte{in.path: in.src})
}

func (in *stdinSource) lint(r *analyzer.Runner) []analyzer.Diagnostic {
	if in.excluded {
		return nil
	}
	if analyzer.IsNotebook(in.path) {
		return r.LintNotebook(in.path, in.src)
	}
	return r.LintSource(in.path, in.src)
}

func (in *stdinSource) fix(r *analyzer.Runner, unsafe bool) analyzer.FileFix {
	ff := analyzer.FileFix{Path: in.path, Original: in.src}
	if in.excluded {
		ff.Source = in.src
		return ff
	}
	if analyzer.IsNotebook(in.path) {
		ff.FixResult = r.FixNotebook(in.path, in.src, unsafe)
	} else {
		ff.FixResult = r.FixSource(in.path, in.src, unsafe)
	}
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
