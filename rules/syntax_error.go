package rules

import "github.com/torchlint/torchlint/analyzer"

// SyntaxError is reported by the runner where the parser had to recover.
var SyntaxError = &analyzer.Rule{
	Code:      analyzer.SyntaxErrorCode,
	Name:      "syntax-error",
	Summary:   "The file does not parse as Python",
	Severity:  analyzer.SeverityError,
	Precision: "very-high",
	Tags:      []string{"correctness"},
	Doc: `## What it does
Reports a place where the file is not valid Python syntax.

## Why is this bad?
Python will refuse to run the file. torchlint still lints the parts of the
file that the parser recovered, but findings near a syntax error may be
missing or misplaced.

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
The parser supports Python 3 syntax up to the features of its grammar;
very new syntax may be reported here even though CPython accepts it.
This diagnostic cannot be disabled.

## References
- [Python language reference](https://docs.python.org/3/reference/)
`,
}
