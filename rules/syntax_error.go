package rules

import "github.com/torchlint/torchlint/analyzer"

// SyntaxError is reported by the runner, once per file, where CPython
// would reject the file.
var SyntaxError = &analyzer.Rule{
	Code:      analyzer.SyntaxErrorCode,
	Name:      "syntax-error",
	Summary:   "The file does not parse as Python",
	Severity:  analyzer.SeverityError,
	Precision: "very-high",
	Tags:      []string{"correctness"},
	Doc: `## What it does
Reports a file that Python 3 refuses to compile, once, at the first error,
as ` + "`python3 -m py_compile`" + ` does: invalid syntax, an ` + "`IndentationError`" + `
(an indented line where no block opens, say under a commented-out ` + "`if`" + `,
an unindent that matches no outer level, a block header with no body), a
` + "`TabError`" + `, an unclosed bracket or string, a bare ` + "`name:`" + ` line, a
keyword where no statement takes it (an ` + "`else:`" + ` with no ` + "`if`" + ` above it), a
Python 2 ` + "`print`" + ` statement, ` + "`raise E, \"message\"`" + ` or ` + "`except E, e:`" + `, or a ` + "`return`" + ` or ` + "`break`" + ` where the
compiler refuses it. The message is CPython's kind of message
(` + "`IndentationError: unexpected indent`" + `).

## Why is this bad?
Python will refuse to run the file. torchlint still lints the parts of the
file that the parser recovered, but findings near a syntax error may be
missing or misplaced. CPython stops at the first error, and so does this
report: a template with many placeholders, or a Python 2 file with many
` + "`print`" + ` statements, gets one finding, not one per line.

## Example
` + "```python" + `
for batch in loader
    loss = model(batch)
` + "```" + `

## Use instead
` + "```python" + `
for batch in loader:
    loss = model(batch)
` + "```" + `

## Known problems
f-strings are read as Python 3.12 reads them (PEP 701): a replacement
field may hold strings in the same quotes and line breaks, which earlier
versions refuse. The parser supports Python 3 syntax up to the features of its grammar;
very new syntax may be reported here even though CPython accepts it. The
compiler's own checks are covered only in part (` + "`return`" + `, ` + "`yield`" + `
and ` + "`await`" + ` outside a function, ` + "`break`" + ` and ` + "`continue`" + ` outside a
loop, ` + "`nonlocal`" + ` without a binding); an invalid assignment target or a
repeated argument name is not reported. Where several errors are close, the
line reported may be another than CPython's first. This diagnostic cannot
be disabled.

## References
- [Python language reference](https://docs.python.org/3/reference/)
`,
}
