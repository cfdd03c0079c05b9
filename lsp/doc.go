// Package lsp owns `torchlint server`, the Language Server Protocol
// server over stdio: it lints Python documents as they are opened,
// edited and saved, publishes their diagnostics, and offers their fixes
// and `# noqa` comments as code actions. The project package supplies
// each document's configuration; the analyzer and the rules its findings.
package lsp
