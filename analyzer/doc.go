// Package analyzer owns everything between a Python file's bytes and the
// diagnostics of the rules: parsing with tree-sitter (the only package
// that touches it), the Go-side node array, the semantic model (scopes,
// qualified names, grad mode, loops, autograd history), the rule and
// diagnostic types, and the runner that lints files in parallel with one
// dispatching walk per file.
package analyzer
