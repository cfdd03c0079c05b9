package rules

import "github.com/torchlint/torchlint/analyzer"

// UnusedNoqa is TL900. It has no check: the runner reports it after the
// other rules, from what their noqa comments suppressed.
var UnusedNoqa = &analyzer.Rule{
	Code:      analyzer.UnusedNoqaCode,
	Name:      "unused-noqa",
	Summary:   "A `noqa` comment names a code that suppresses nothing",
	Severity:  analyzer.SeverityWarning,
	Precision: "very-high",
	Tags:      []string{"maintainability"},
	Fixable:   true,
	Doc: `## What it does
Checks for torchlint codes in ` + "`# noqa: CODES`" + ` and ` + "`# torchlint: noqa: CODES`" + `
comments that suppress no finding: the line (or, for the file-level form,
the file) has no finding of that code.

Only codes of rules that run on the file are judged. Codes of other tools
(` + "`E501`" + `, ` + "`F401`" + `), codes of rules that are not selected for the file,
and a ` + "`# noqa`" + ` that names no code are never reported. ` + "`TL001`" + ` and
` + "`TL002`" + ` cannot be suppressed, so a ` + "`noqa`" + ` naming them is always reported.
A code named in a ` + "`# torchlint: noqa: CODES`" + ` comment is used by the findings
of the whole file, so the same code on one of its lines is reported.

## Why is this bad?
A ` + "`noqa`" + ` comment outlives the code it was written for: once the finding is
gone (the code was fixed, or moved to another line), the comment only hides
the next real finding of that code on the line, and tells readers about a
problem that is no longer there.

## Example
` + "```python" + `
state = torch.load(path, map_location="cpu")  # noqa: TL403
total_loss += loss.item()  # noqa: TL101, E501
` + "```" + `

## Use instead
` + "```python" + `
state = torch.load(path, map_location="cpu")
total_loss += loss.item()  # noqa: E501
` + "```" + `

## Fix safety
The fix is safe: it only edits comments. It removes the unused codes from
the list, and the whole ` + "`noqa`" + ` directive when no code is left, keeping the
code and any other comment text on the line (a comment line that held only
the directive is deleted).

## Known problems
A finding that spans several lines is suppressed by the comment on its
first line only, as in Ruff; a code on one of its later lines is reported.
A ` + "`# noqa: TL900`" + ` in the same comment keeps its codes from being reported.

## References
- [Ruff: error suppression](https://docs.astral.sh/ruff/linter/#error-suppression)
- [Ruff: unused-noqa (RUF100)](https://docs.astral.sh/ruff/rules/unused-noqa/)
`,
}

// Selectable reports whether enabling r changes what a run reports: r has
// a check, or the runner produces it on request (TL900). TL001 and TL002
// are always on and need no selecting.
func Selectable(r *analyzer.Rule) bool {
	return r.Check != nil || r == UnusedNoqa
}
