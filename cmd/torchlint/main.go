// Command torchlint finds PyTorch code patterns that waste GPU memory.
//
//	torchlint check [flags] [PATH...]
//	torchlint PATH...
//	torchlint rule CODE | torchlint rule --all
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/gctune"
	"github.com/torchlint/torchlint/lsp"
	"github.com/torchlint/torchlint/project"
	"github.com/torchlint/torchlint/rules"
)

// Exit codes, as in Ruff.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

// main tunes the collector: collecting each time the heap doubles costs
// a check much of its time on a project whose live heap is small, while a
// fixed GOGC=200 cost 45 MB of peak memory on a 2,089-file project; the
// budget keeps the largest projects' peak near where the default puts it.
func main() {
	gctune.Start(heapBudget)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// heapBudget is how large the collector lets the heap grow between
// collections while the live heap is at most half of it (see gctune).
const heapBudget = 80 << 20

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
	case "clean":
		return runClean(args[1:], stdout, stderr)
	case "server":
		return runServer(args[1:], os.Stdin, stdout, stderr)
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
	return fmt.Sprintf("# %s (%s)\n\n%s.\n\nShown by default: findings of confidence %s or higher (`--confidence` chooses another level).\n\n%s",
		r.Name, r.Code, r.Summary, r.ShownFrom(), r.Doc)
}

// runClean removes the cache folder: `torchlint clean [--cache-dir DIR]`.
func runClean(args []string, stdout, stderr io.Writer) int {
	dir := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--cache-dir" && i+1 < len(args):
			dir = args[i+1]
			i++
		case strings.HasPrefix(a, "--cache-dir="):
			dir = strings.TrimPrefix(a, "--cache-dir=")
		default:
			fmt.Fprintf(stderr, "torchlint: error: clean takes only --cache-dir DIR, not %q\n", a)
			return exitError
		}
	}
	dir = project.CacheDir(dir)
	removed, err := project.RemoveCache(dir)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	case !removed:
		fmt.Fprintf(stdout, "No cache at %s\n", dir)
	default:
		fmt.Fprintf(stdout, "Removed %s\n", dir)
	}
	return exitClean
}

// runServer serves the Language Server Protocol on in and out until the
// client asks it to exit. It returns 0 after shutdown and exit, 1 when
// the connection ends without them, as the protocol asks.
func runServer(args []string, in io.Reader, out, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" { // clients such as VS Code's pass --stdio
			fmt.Fprintf(stderr, "torchlint: error: server takes no arguments but --stdio, not %q\n", a)
			return exitError
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "torchlint: error: %v\n", err)
		return exitError
	}
	if err := lsp.Serve(in, out, lsp.Options{Cwd: cwd, Version: versionString()}); err != nil {
		return 1
	}
	return exitClean
}
