package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/project"
	"github.com/torchlint/torchlint/rules"
)

// debounce is how long the server waits after the last change of a
// document before linting its project again; aheadDelay, before
// linting the document alone with the facts the project last had, so
// that a burst of changes is linted once. Project lints after edits run
// one at a time: a change made while one runs is linted once it ends,
// with every other change made meanwhile, so that the delay can be short
// without a fast typist's keystrokes piling up lints.
const (
	debounce   = 50 * time.Millisecond
	aheadDelay = 10 * time.Millisecond
)

// server is the language server of `torchlint server`: it
// lints Python documents as they are opened, edited and saved, and offers
// their fixes and noqa comments as code actions. It uses go.lsp.dev's
// protocol types and JSON-RPC connection (with request cancellation).
type server struct {
	conn    jsonrpc2.Conn
	cwd     string
	version string
	configs *project.Configs
	runner  *analyzer.Runner
	// linter gives each document the facts of its project, with the
	// open documents standing in for their files; its store keeps the
	// summaries of the project's files between lints.
	linter *project.Linter

	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*openDoc
	shutdown bool
	exited   chan struct{} // closed by the exit notification

	// linting: a project lint after an edit runs; again: the document
	// whose edit asked for another while it ran, "" for none.
	lintMu  sync.Mutex
	linting bool
	again   protocol.DocumentURI
	// afterEdit is the project lint lintAfterEdit runs: lintWithOthers.
	afterEdit func(protocol.DocumentURI)
}

// openDoc is an open document: its text, version, the findings of its last
// lint, and the timer of a pending one.
type openDoc struct {
	text    string
	version int32
	diags   []analyzer.Diagnostic
	linted  string // the text diags are for
	timer   *time.Timer
	ahead   *time.Timer
	// published: findings were published for the document since it
	// was opened.
	published bool
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// Options configure a language server.
type Options struct {
	// Cwd is the folder whose configuration applies until the client
	// names a workspace.
	Cwd string
	// Version is torchlint's version, told to the client.
	Version string
}

// errNoShutdown is Serve's error when the connection ends, or the client
// exits, without asking the server to shut down first.
var errNoShutdown = errors.New("the client left without shutdown and exit")

// Serve serves the Language Server Protocol on in and out until the
// client asks it to exit. It returns nil after shutdown and exit, and an
// error when the connection ends without them (the protocol then asks
// for exit status 1).
func Serve(in io.Reader, out io.Writer, opts Options) error {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{in, out}))
	s := &server{conn: conn, cwd: opts.Cwd, version: opts.Version, docs: map[protocol.DocumentURI]*openDoc{}, exited: make(chan struct{})}
	s.afterEdit = s.lintWithOthers
	s.reset()
	conn.Go(context.Background(), protocol.Handlers(s.handle))
	select {
	case <-conn.Done(): // the client went away
	case <-s.exited:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return nil
	}
	return errNoShutdown
}

// reset reads the configuration afresh, for a new workspace or after a
// configuration file changed.
func (s *server) reset() {
	s.configs = project.NewConfigs(s.cwd)
	s.runner = analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	configs := s.configs
	s.runner.RulesFor = func(path string) func(*analyzer.Rule) bool {
		set := configs.RulesFor(rules.Selection{}, path)
		return func(r *analyzer.Rule) bool { return set[r] }
	}
	s.runner.MinConfidence = configs.ConfidenceFor
	d := &project.Discoverer{Configs: configs, Warn: func(string) {}}
	s.linter = &project.Linter{Runner: s.runner, Store: project.NewMemoryStore(), Ahead: true, Named: []string{s.cwd}, Files: func(root string) ([]string, error) {
		return d.Discover([]string{root})
	}, Src: configs.SrcFor}
}

// handle answers one message. A panic or a malformed request is answered
// with an error; the server keeps running.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = reply(ctx, nil, fmt.Errorf("internal error in %s: %v", req.Method(), p))
		}
	}()
	params := req.Params()
	decode := func(v any) bool {
		if e := json.Unmarshal(params, v); e != nil {
			err = reply(ctx, nil, fmt.Errorf("%w: %s: %w", jsonrpc2.ErrInvalidParams, req.Method(), e))
			return false
		}
		return true
	}
	switch req.Method() {
	case protocol.MethodInitialize:
		var p protocol.InitializeParams
		if !decode(&p) {
			return err
		}
		if len(p.WorkspaceFolders) > 0 {
			s.cwd = uri.URI(p.WorkspaceFolders[0].URI).Filename()
			s.reset()
		} else if p.RootURI != "" { //nolint:staticcheck // clients that predate workspace folders send only rootUri
			s.cwd = p.RootURI.Filename() //nolint:staticcheck // likewise
			s.reset()
		}
		return reply(ctx, protocol.InitializeResult{
			Capabilities: protocol.ServerCapabilities{
				TextDocumentSync: protocol.TextDocumentSyncOptions{
					OpenClose: true,
					Change:    protocol.TextDocumentSyncKindFull,
					Save:      &protocol.SaveOptions{IncludeText: false},
				},
				CodeActionProvider: protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
			},
			ServerInfo: &protocol.ServerInfo{Name: "torchlint", Version: s.version},
		}, nil)
	case protocol.MethodInitialized:
		return reply(ctx, nil, nil)
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		_ = reply(ctx, nil, nil)
		s.mu.Lock()
		select {
		case <-s.exited:
		default:
			close(s.exited)
		}
		s.mu.Unlock()
		return nil
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if !decode(&p) {
			return err
		}
		s.mu.Lock()
		s.docs[p.TextDocument.URI] = &openDoc{text: p.TextDocument.Text, version: p.TextDocument.Version}
		s.mu.Unlock()
		s.lintWithOthers(p.TextDocument.URI)
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if !decode(&p) {
			return err
		}
		s.mu.Lock()
		if d := s.docs[p.TextDocument.URI]; d != nil && len(p.ContentChanges) > 0 {
			d.text = p.ContentChanges[len(p.ContentChanges)-1].Text // full sync
			d.version = p.TextDocument.Version
			u := p.TextDocument.URI
			if d.timer != nil {
				d.timer.Stop()
			}
			if d.ahead != nil {
				d.ahead.Stop()
			}
			d.ahead = time.AfterFunc(aheadDelay, func() { s.lintAhead(u) })
			d.timer = time.AfterFunc(debounce, func() { s.lintAfterEdit(u) })
		}
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidSave:
		var p protocol.DidSaveTextDocumentParams
		if !decode(&p) {
			return err
		}
		if name := p.TextDocument.URI.Filename(); project.IsConfigFile(name) {
			s.mu.Lock()
			s.reset()
			s.mu.Unlock()
		}
		s.lintWithOthers(p.TextDocument.URI)
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if !decode(&p) {
			return err
		}
		s.mu.Lock()
		if d := s.docs[p.TextDocument.URI]; d != nil {
			for _, t := range []*time.Timer{d.timer, d.ahead} {
				if t != nil {
					t.Stop()
				}
			}
		}
		delete(s.docs, p.TextDocument.URI)
		s.mu.Unlock()
		_ = s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics,
			protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		if !decode(&p) {
			return err
		}
		return reply(ctx, s.codeActions(p), nil)
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, fmt.Errorf("%w: %s", jsonrpc2.ErrMethodNotFound, req.Method()))
	}
	return nil // notifications the server does not use
}

// lintWithOthers lints the open documents with the facts of their
// projects, as they stand, and publishes the findings of u and those of
// the other documents whose findings changed. The linter's store keeps
// each document's summary and findings with the questions they asked of
// other files: only documents that changed, or whose questions now get
// other answers, are linted again.
func (s *server) lintWithOthers(u protocol.DocumentURI) {
	s.mu.Lock()
	linter, minConfidence := s.linter, s.runner.MinConfidence
	open := map[string][]byte{}
	texts := map[protocol.DocumentURI]string{}
	var paths []string
	var others []protocol.DocumentURI
	for o, od := range s.docs {
		open[o.Filename()] = []byte(od.text)
		texts[o] = od.text
		if !analyzer.IsNotebook(o.Filename()) {
			paths = append(paths, o.Filename())
		}
		if o != u {
			others = append(others, o)
		}
	}
	s.mu.Unlock()
	if _, ok := texts[u]; !ok {
		return // closed meanwhile
	}
	sort.Strings(paths)
	all, _ := linter.Lint(paths, open)
	byPath := map[string][]analyzer.Diagnostic{}
	shown, _, _ := analyzer.Confident(analyzer.Unsuppressed(all), minConfidence)
	for _, d := range shown {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	// Published already where lintAhead found the same for this text.
	s.publish(u, texts[u], byPath[u.Filename()], true)
	sort.Slice(others, func(i, j int) bool { return others[i] < others[j] })
	for _, o := range others {
		s.publish(o, texts[o], byPath[o.Filename()], true)
	}
}

// lintAfterEdit runs lintWithOthers for an edit of u, unless a project
// lint after an edit runs already: then that one lints again when it
// ends, once for all the edits made meanwhile (each lint reads every
// open document as it is then).
func (s *server) lintAfterEdit(u protocol.DocumentURI) {
	s.lintMu.Lock()
	if s.linting {
		s.again = u
		s.lintMu.Unlock()
		return
	}
	s.linting = true
	s.lintMu.Unlock()
	for {
		s.afterEdit(u)
		s.lintMu.Lock()
		if s.again == "" {
			s.linting = false
			s.lintMu.Unlock()
			return
		}
		u, s.again = s.again, ""
		s.lintMu.Unlock()
	}
}

// lintAhead lints an edited document alone, with the facts its project
// had at its last lint, and publishes its findings at once;
// lintWithOthers follows with the project brought up to date, and
// publishes again only what changed.
func (s *server) lintAhead(u protocol.DocumentURI) {
	s.mu.Lock()
	linter, minConfidence := s.linter, s.runner.MinConfidence
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		return
	}
	text := d.text
	s.mu.Unlock()
	diags, ok, err := linter.LintAhead(u.Filename(), []byte(text))
	if !ok || err != nil {
		return // the project lint that follows answers
	}
	shown, _, _ := analyzer.Confident(analyzer.Unsuppressed(diags), minConfidence)
	s.publishFor(u, text, shown, true, true)
}

// publish publishes the findings of a document's text, unless the
// document was closed or changed meanwhile (a newer lint follows); with
// onlyChanged, only when they differ from the last ones published.
func (s *server) publish(u protocol.DocumentURI, text string, diags []analyzer.Diagnostic, onlyChanged bool) {
	s.publishFor(u, text, diags, onlyChanged, false)
}

// publishFor is publish; with ahead, findings made ahead of the project
// lint are dropped when that lint has already answered for the text.
func (s *server) publishFor(u protocol.DocumentURI, text string, diags []analyzer.Diagnostic, onlyChanged, ahead bool) {
	analyzer.SortDiagnostics(diags)
	s.mu.Lock()
	d := s.docs[u]
	if d == nil || d.text != text || ahead && d.linted == text {
		s.mu.Unlock()
		return
	}
	version := d.version
	same := d.published && d.linted == text && sameFindings(d.diags, diags)
	d.diags, d.linted = diags, text
	if onlyChanged && same {
		s.mu.Unlock()
		return
	}
	d.published = true
	s.mu.Unlock()
	out := make([]protocol.Diagnostic, 0, len(diags))
	for i := range diags {
		out = append(out, lspDiagnostic(text, &diags[i]))
	}
	_ = s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics,
		protocol.PublishDiagnosticsParams{URI: u, Version: uint32(version), Diagnostics: out})
}

// sameFindings reports whether two lints of the same text found the same.
func sameFindings(a, b []analyzer.Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Rule != b[i].Rule || a[i].Start != b[i].Start || a[i].End != b[i].End || a[i].Message != b[i].Message {
			return false
		}
	}
	return true
}

func lspDiagnostic(text string, d *analyzer.Diagnostic) protocol.Diagnostic {
	severity := protocol.DiagnosticSeverityWarning
	if d.Rule.Severity == analyzer.SeverityError {
		severity = protocol.DiagnosticSeverityError
	}
	return protocol.Diagnostic{
		Range:           lspRange(text, d.Start, d.End),
		Severity:        severity,
		Code:            d.Rule.Code,
		CodeDescription: &protocol.CodeDescription{Href: protocol.URI(d.Rule.URL())},
		Source:          "torchlint",
		Message:         d.Message,
	}
}

// lspPosition converts a byte offset of text into the protocol's
// zero-based line and UTF-16 column.
func lspPosition(text string, off uint32) protocol.Position {
	if int(off) > len(text) {
		off = uint32(len(text))
	}
	before := text[:off]
	line := strings.Count(before, "\n")
	start := strings.LastIndexByte(before, '\n') + 1
	col := 0
	for _, r := range before[start:] {
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func lspRange(text string, start, end uint32) protocol.Range {
	return protocol.Range{Start: lspPosition(text, start), End: lspPosition(text, end)}
}

// codeActions offers, for each finding in the requested range, its fix
// (marked when unsafe) and a `# noqa: CODE` comment.
func (s *server) codeActions(p protocol.CodeActionParams) []protocol.CodeAction {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	var diags []analyzer.Diagnostic
	var text string
	if d != nil && d.linted == d.text {
		diags, text = d.diags, d.text
	}
	s.mu.Unlock()
	actions := []protocol.CodeAction{}
	for i := range diags {
		diag := &diags[i]
		r := lspRange(text, diag.Start, diag.End)
		if !overlaps(r, p.Range) {
			continue
		}
		ld := lspDiagnostic(text, diag)
		if diag.Fix != nil {
			title := diag.Fix.Message
			if diag.Fix.Applicability == analyzer.Unsafe {
				title += " (unsafe)"
			}
			var edits []protocol.TextEdit
			for _, e := range diag.Fix.Edits {
				edits = append(edits, protocol.TextEdit{Range: lspRange(text, e.Start, e.End), NewText: e.New})
			}
			actions = append(actions, protocol.CodeAction{
				Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{ld},
				IsPreferred: diag.Fix.Applicability == analyzer.Safe,
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: edits}},
			})
		}
		if edit, ok := noqaEdit(text, diag); ok {
			actions = append(actions, protocol.CodeAction{
				Title: "Disable " + diag.Rule.Code + " for this line", Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{ld},
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: {edit}}},
			})
		}
	}
	return actions
}

func overlaps(a, b protocol.Range) bool {
	before := func(x, y protocol.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// noqaEdit adds the finding's code to a `# noqa: CODES` comment that ends
// its noqa line (its first line, or the last of the multi-line string or
// backslash continuation that holds it), or adds such a comment.
func noqaEdit(text string, d *analyzer.Diagnostic) (protocol.TextEdit, bool) {
	start := strings.LastIndexByte(text[:d.Start], '\n') + 1
	for range d.NoqaOffset {
		nl := strings.IndexByte(text[start:], '\n')
		if nl < 0 {
			return protocol.TextEdit{}, false
		}
		start += nl + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += start
	}
	trimmed := strings.TrimRight(text[start:end], " \t\r")
	if !utf8.ValidString(trimmed) {
		return protocol.TextEdit{}, false
	}
	newText := "  # noqa: " + d.Rule.Code
	if trailingNoqa.MatchString(trimmed) {
		newText = ", " + d.Rule.Code
	}
	pos := lspPosition(text, uint32(start+len(trimmed)))
	return protocol.TextEdit{Range: protocol.Range{Start: pos, End: pos}, NewText: newText}, true
}

// trailingNoqa is a line ending in a noqa comment that names codes.
var trailingNoqa = regexp.MustCompile(`(?i)#\s*noqa\s*:\s*[A-Z]+[0-9]+([,\s]+[A-Z]+[0-9]+)*$`)
