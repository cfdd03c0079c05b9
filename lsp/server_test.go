package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/torchlint/torchlint/analyzer"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestServerProtocol talks to the server over pipes with go.lsp.dev's
// JSON-RPC client: malformed and unknown requests get errors while the
// server keeps serving, a half-typed file is linted without harm, and
// shutdown then exit ends it without an error.
func TestServerProtocol(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.torchlint]\nignore = [\"TL401\"]\nextend-select = [\"TL403\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conn, published, status := startServer(t, t.TempDir())
	ctx := context.Background()
	call := func(method string, params, result any) error {
		_, err := conn.Call(ctx, method, params, result)
		return err
	}
	var init protocol.InitializeResult
	if err := call(protocol.MethodInitialize, map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{}}, &init); err != nil || init.ServerInfo == nil || init.ServerInfo.Name != "torchlint" {
		t.Fatalf("initialize: %v %+v", err, init)
	}
	_ = conn.Notify(ctx, protocol.MethodInitialized, map[string]any{})
	if err := call(protocol.MethodTextDocumentCodeAction, []int{1, 2}, nil); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Errorf("malformed codeAction params: %v", err)
	}
	if err := call("torchlint/unknown", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown method: %v", err)
	}
	doc := protocol.DocumentURI("file://" + filepath.Join(dir, "half.py"))
	half := "import torch\nscaler = torch.cuda.amp.GradScaler()\nstate = torch.load(\"x.pt\").cuda()\ndef f(model, loader:\n    for x in loa"
	_ = conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: doc, LanguageID: "python", Version: 1, Text: half}})
	select {
	case p := <-published:
		var codes []string
		for _, d := range p.Diagnostics {
			codes = append(codes, fmt.Sprint(d.Code))
		}
		// TL401 is ignored by the project's pyproject.toml.
		if got := strings.Join(codes, ","); !strings.Contains(got, "TL001") || !strings.Contains(got, "TL403") || strings.Contains(got, "TL401") {
			t.Errorf("diagnostics of a half-typed file: %s", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no diagnostics published")
	}
	if err := call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
	select {
	case err := <-status:
		if err != nil {
			t.Errorf("after shutdown and exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// TestServerProjectFacts: a document is linted with the facts of its
// project, open documents standing in for their files, and an edit of
// one document publishes again another whose findings it changes.
func TestServerProjectFacts(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// The finding is of low confidence (a function named for
		// evaluation that no code calls): the configuration shows it.
		"pyproject.toml": "[tool.torchlint]\nconfidence = \"low\"\n",
		"models.py":      "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    pass\n",
		"evaluate.py":    "from models import Net\n\n\ndef evaluate(batches):\n    clf = Net()\n    return [clf(b) for b in batches]\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conn, published, _ := startServer(t, dir)
	ctx := context.Background()
	var init protocol.InitializeResult
	if _, err := conn.Call(ctx, protocol.MethodInitialize, map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatal(err)
	}
	_ = conn.Notify(ctx, protocol.MethodInitialized, map[string]any{})
	evalURI := protocol.DocumentURI("file://" + filepath.Join(dir, "evaluate.py"))
	modelsURI := protocol.DocumentURI("file://" + filepath.Join(dir, "models.py"))
	codesFor := func(want protocol.DocumentURI) string {
		t.Helper()
		for {
			select {
			case p := <-published:
				if p.URI != want {
					continue
				}
				var codes []string
				for _, d := range p.Diagnostics {
					codes = append(codes, fmt.Sprint(d.Code))
				}
				return strings.Join(codes, ",")
			case <-time.After(20 * time.Second):
				t.Fatalf("nothing published for %s", want)
			}
		}
	}
	_ = conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: evalURI, LanguageID: "python", Version: 1, Text: files["evaluate.py"]}})
	if got := codesFor(evalURI); got != "TL201" {
		t.Fatalf("evaluate.py: %q, want TL201 (Net is a module in models.py)", got)
	}
	_ = conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: modelsURI, LanguageID: "python", Version: 1, Text: files["models.py"]}})
	if got := codesFor(modelsURI); got != "" {
		t.Fatalf("models.py: %q, want nothing", got)
	}
	// An unsaved edit: Net is no longer a module.
	edited := strings.Replace(files["models.py"], "class Net(nn.Module):", "class Net:", 1)
	_ = conn.Notify(ctx, protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: modelsURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: edited}},
	})
	if got := codesFor(evalURI); got != "" {
		t.Errorf("evaluate.py after the edit of models.py: %q, want nothing", got)
	}
	// A burst of edits, each one switching Net between a module and not,
	// faster than a project lint: the lints run one at a time, and the
	// last one is of the last text, whichever edits it took in.
	for v := int32(3); v < 23; v++ {
		text := files["models.py"]
		if v%2 == 0 {
			text = edited
		}
		_ = conn.Notify(ctx, protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: modelsURI}, Version: v},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
		})
		time.Sleep(time.Duration(v%4) * 15 * time.Millisecond)
	}
	// The last edit (version 22) made Net no module again: evaluate.py's
	// last findings, once the server is quiet, are none.
	last := "unpublished"
	for quiet := false; !quiet; {
		select {
		case p := <-published:
			if p.URI == evalURI {
				var codes []string
				for _, d := range p.Diagnostics {
					codes = append(codes, fmt.Sprint(d.Code))
				}
				last = strings.Join(codes, ",")
			}
		case <-time.After(time.Second):
			quiet = true
		}
	}
	if last != "" && last != "unpublished" {
		t.Errorf("evaluate.py after a burst of edits ending with Net no module: %q, want nothing", last)
	}
	if _, err := conn.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
}

// TestLintAfterEditCoalesces: project lints after edits run one at a
// time; the edits made while one runs are linted once, after it, as the
// last of them asked.
func TestLintAfterEditCoalesces(t *testing.T) {
	s := &server{}
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var linted []protocol.DocumentURI
	s.afterEdit = func(u protocol.DocumentURI) {
		mu.Lock()
		linted = append(linted, u)
		first := len(linted) == 1
		mu.Unlock()
		if first {
			close(started)
			<-release
		}
	}
	done := make(chan struct{})
	go func() {
		s.lintAfterEdit("file:///a.py")
		close(done)
	}()
	<-started
	// Three edits while the first lint runs: none starts a lint of its own.
	for _, u := range []protocol.DocumentURI{"file:///b.py", "file:///a.py", "file:///c.py"} {
		s.lintAfterEdit(u)
	}
	close(release)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the lints after the first never ended")
	}
	mu.Lock()
	got := slices.Clone(linted)
	mu.Unlock()
	if want := []protocol.DocumentURI{"file:///a.py", "file:///c.py"}; !slices.Equal(got, want) {
		t.Errorf("project lints: %v, want %v", got, want)
	}
	s.lintAfterEdit("file:///d.py") // none runs: this one runs at once
	mu.Lock()
	defer mu.Unlock()
	if n := len(linted); n != 3 || linted[2] != "file:///d.py" {
		t.Errorf("a lint after the others ended: %v", linted)
	}
}

// startServer serves the protocol over pipes with cwd as the working
// folder, and returns the client's connection, the diagnostics the
// server publishes, and the server's result once it returns.
func startServer(t *testing.T, cwd string) (jsonrpc2.Conn, chan protocol.PublishDiagnosticsParams, chan error) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	status := make(chan error, 1)
	go func() {
		status <- Serve(toServer, fromServer, Options{Cwd: cwd, Version: "0.0.0-test"})
		_ = fromServer.Close()
	}()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{toClient, fromClient}))
	published := make(chan protocol.PublishDiagnosticsParams, 16)
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				published <- p
			}
		}
		return reply(ctx, nil, nil)
	})
	return conn, published, status
}

// TestNoqaEdit checks that the noqa quick fix writes where Python reads a
// comment: after the last line of a multi-line string or continuation,
// merged into a directive already there.
func TestNoqaEdit(t *testing.T) {
	text := "x = load('''a\nb''')\ny = load(1)  # noqa: E501\n"
	rule := &analyzer.Rule{Code: "TL403"}
	cases := []struct {
		d    analyzer.Diagnostic
		line uint32
		new  string
	}{
		{analyzer.Diagnostic{Rule: rule, Start: 4, NoqaOffset: 1}, 1, "  # noqa: TL403"},
		{analyzer.Diagnostic{Rule: rule, Start: uint32(strings.Index(text, "y ="))}, 2, ", TL403"},
	}
	for _, c := range cases {
		e, ok := noqaEdit(text, &c.d)
		if !ok || e.Range.Start.Line != c.line || e.NewText != c.new {
			t.Errorf("finding at %d: edit %+v (%v), want %q on line %d", c.d.Start, e, ok, c.new, c.line)
		}
	}
}
