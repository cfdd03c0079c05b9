// Command torchlint finds PyTorch code patterns that waste GPU memory.
//
//	torchlint check [flags] [PATH...]
//	torchlint PATH...
//	torchlint rule CODE | torchlint rule --all
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

// Exit codes, as in Ruff.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A run allocates a few times the size of the source it reads but
		// keeps little alive; collecting half as often saves time and
		// stays well inside the memory budget.
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `torchlint finds PyTorch code that wastes GPU memory.

Usage:
  torchlint check [flags] [PATH...]   lint files and directories (default: .)
  torchlint PATH...                   same as check
  torchlint rule CODE                 explain a rule
  torchlint rule --all                list all rules
  torchlint --explain CODE            explain a rule
  torchlint --version                 print the version

Run 'torchlint check --help' for the check flags.
`

// run executes one command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runCheck(nil, stdout, stderr)
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "rule":
		return runRule(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitClean
	case "version", "--version", "-V":
		fmt.Fprintf(stdout, "torchlint %s\n", versionString())
		return exitClean
	case "--explain":
		if len(args) != 2 {
			fmt.Fprintln(stderr, "torchlint: error: --explain takes one rule code")
			return exitError
		}
		return explain(args[1], stdout, stderr)
	}
	if strings.HasPrefix(args[0], "--explain=") {
		return explain(strings.TrimPrefix(args[0], "--explain="), stdout, stderr)
	}
	return runCheck(args, stdout, stderr)
}

func runRule(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("torchlint rule", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("all", false, "list every rule")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitClean
		}
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	if *all {
		w := 0
		for _, r := range rules.All {
			w = max(w, len(r.Name))
		}
		for _, r := range rules.All {
			preview := ""
			if r.Preview {
				preview = " (preview)"
			}
			fmt.Fprintf(stdout, "%s  %-*s  %s%s\n", r.Code, w, r.Name, r.Summary, preview)
		}
		return exitClean
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "torchlint: error: rule takes one rule code (or --all)")
		return exitError
	}
	return explain(fs.Arg(0), stdout, stderr)
}

func explain(code string, stdout, stderr io.Writer) int {
	r := rules.ByCode(code)
	if r == nil {
		fmt.Fprintf(stderr, "torchlint: error: unknown rule %q; 'torchlint rule --all' lists the rules\n", code)
		return exitError
	}
	fmt.Fprint(stdout, RuleMarkdown(r))
	return exitClean
}

// RuleMarkdown is a rule's documentation page, as printed by
// `torchlint rule` and published under docs/rules.
func RuleMarkdown(r *analyzer.Rule) string {
	return fmt.Sprintf("# %s (%s)\n\n%s.\n\n%s", r.Name, r.Code, r.Summary, r.Doc)
}

type checkFlags struct {
	format       string
	outputFile   string
	selectRules  []string
	extendSelect []string
	ignore       []string
}

var formats = map[string]func(io.Writer, *report) error{
	"full":    writeFull,
	"concise": writeConcise,
	"json":    writeJSON,
	"sarif":   writeSARIF,
}

func formatNames() string {
	var names []string
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	var cf checkFlags
	fs := pflag.NewFlagSet("torchlint check", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cf.format, "output-format", "full", "output format: "+formatNames())
	fs.StringVarP(&cf.outputFile, "output-file", "o", "", "write the report to this file instead of standard output")
	fs.StringSliceVar(&cf.selectRules, "select", nil, "rules to enable, by code, prefix (TL1) or name; replaces the default set")
	fs.StringSliceVar(&cf.extendSelect, "extend-select", nil, "rules to enable in addition to the selected ones")
	fs.StringSliceVar(&cf.ignore, "ignore", nil, "rules to disable, by code, prefix or name")
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
	write, ok := formats[cf.format]
	if !ok {
		fmt.Fprintf(stderr, "torchlint: error: unknown output format %q (expected one of: %s)\n", cf.format, formatNames())
		return exitError
	}
	enabled, err := rules.Selection{Select: cf.selectRules, ExtendSelect: cf.extendSelect, Ignore: cf.ignore}.Resolve()
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := discover(paths, func(msg string) { fmt.Fprintf(stderr, "torchlint: warning: %s\n", msg) })
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	runner := analyzer.NewRunner(enabled, rules.SyntaxError, rules.IOError)
	diags, failures := runner.LintFiles(files)
	rep := &report{Diagnostics: diags, Files: len(files), Cwd: cwd}
	var buf bytes.Buffer
	if err := write(&buf, rep); err != nil {
		fmt.Fprintf(stderr, "torchlint: error: write %s output: %v\n", cf.format, err)
		return exitError
	}
	if cf.outputFile != "" {
		if err := writeFileAtomic(cf.outputFile, buf.Bytes()); err != nil {
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
	case len(diags) > 0:
		return exitFindings
	}
	return exitClean
}

// writeFileAtomic writes data to path through a temporary file in the
// same directory, so a reader never sees a partial report.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		_ = os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		_ = os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
