package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestServerProtocol talks to the server over pipes with go.lsp.dev's
// JSON-RPC client: malformed and unknown requests get errors while the
// server keeps serving, a half-typed file is linted without harm, and
// shutdown then exit ends it without an error.
func TestServerProtocol(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.torchlint]\nignore = [\"TL401\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	status := make(chan error, 1)
	go func() {
		status <- Serve(toServer, fromServer, Options{Cwd: t.TempDir(), Version: "0.0.0-test"})
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
	half := "import torch\nscaler = torch.cuda.amp.GradScaler()\nstate = torch.load(\"x.pt\")\ndef f(model, loader:\n    for x in loa"
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
