package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/torchlint/torchlint/analyzer"
)

// WriteDiff writes a unified diff of every file the fixes would change
// (--diff).
func WriteDiff(w io.Writer, r *Report, fixes []analyzer.FileFix) error {
	ew := &errWriter{w: w}
	for i := range fixes {
		ff := &fixes[i]
		if ff.Original == nil || bytes.Equal(ff.Original, ff.Source) {
			continue
		}
		name := r.displayPath(ff.Path)
		fmt.Fprint(ew, udiff.Unified(name, name, string(ff.Original), string(ff.Source)))
		fmt.Fprintln(ew)
	}
	return ew.err
}

// WriteFixSummary lists the fixes applied per file and rule, as Ruff's
// --show-fixes does; it writes nothing when none were applied.
func WriteFixSummary(w io.Writer, r *Report, fixes []analyzer.FileFix) {
	total := 0
	for i := range fixes {
		total += len(fixes[i].Applied)
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(w, "\nFixed %s:\n", Plural(total, "error", "errors"))
	for i := range fixes {
		ff := &fixes[i]
		if len(ff.Applied) == 0 {
			continue
		}
		fmt.Fprintf(w, "- %s:\n", r.displayPath(ff.Path))
		counts := map[*analyzer.Rule]int{}
		for _, rule := range ff.Applied {
			counts[rule]++
		}
		rules := make([]*analyzer.Rule, 0, len(counts))
		for rule := range counts {
			rules = append(rules, rule)
		}
		sort.Slice(rules, func(a, b int) bool { return rules[a].Code < rules[b].Code })
		for _, rule := range rules {
			fmt.Fprintf(w, "    %d × %s (%s)\n", counts[rule], rule.Code, rule.Name)
		}
	}
}
