package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// neovimDriver runs in Neovim after the documented init.lua: it waits
// for the server's diagnostics on the opened file, records them, applies
// the quick fix whose title names `.item()` through Neovim's own LSP API,
// saves, waits for the diagnostics to clear, and records that too.
const neovimDriver = `
local out = {}
local function log(s) table.insert(out, s) end
local function finish()
  vim.fn.writefile(out, vim.env.TORCHLINT_NVIM_OUT)
  vim.cmd("qa!")
end
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
if not ok then log("no diagnostics") finish() return end
for _, d in ipairs(vim.diagnostic.get(0)) do
  log(string.format("diagnostic %d:%d %s %s %s", d.lnum + 1, d.col + 1, d.source, d.code, d.message))
  local href = d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription and d.user_data.lsp.codeDescription.href
  log("href " .. tostring(href))
end
local d = vim.diagnostic.get(0)[1]
local params = {
  textDocument = vim.lsp.util.make_text_document_params(),
  range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
  context = { diagnostics = { d.user_data.lsp } },
}
local results = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000)
local chosen
for _, res in pairs(results or {}) do
  for _, action in ipairs(res.result or {}) do
    log("action " .. action.title)
    if action.title:find("Accumulate", 1, true) then chosen = action end
  end
end
if not chosen then log("no fix offered") finish() return end
vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
vim.cmd("write")
log("line " .. vim.fn.getline(d.lnum + 1))
local cleared = vim.wait(20000, function() return #vim.diagnostic.get(0) == 0 end, 50)
log("cleared " .. tostring(cleared))
finish()
`

// TestNeovimLanguageServer drives the server with a real editor: Neovim
// (Debian's package), headless, configured with the init.lua of
// docs/editors.md.
func TestNeovimLanguageServer(t *testing.T) {
	nvim := needTool(t, "nvim", "", "Debian package neovim")
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	var initLua string
	for _, s := range docSnippets(t) {
		if s.doc == "editors.md" && s.path == "init.lua" {
			initLua = s.text
		}
	}
	if initLua == "" {
		t.Fatal("docs/editors.md has no init.lua snippet")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "torchlint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/torchlint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	project := filepath.Join(work, "project")
	writeTree(t, project, map[string]string{
		"train.py":  leakyTraining,
		"init.lua":  initLua,
		"drive.lua": neovimDriver,
	})
	outFile := filepath.Join(work, "nvim.out")
	cmd := exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", "init.lua", "train.py", "-c", "luafile drive.lua")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "TORCHLINT_BIN="+bin, "TORCHLINT_NVIM_OUT="+outFile, "XDG_STATE_HOME="+work, "XDG_DATA_HOME="+work)
	done := make(chan []byte, 1)
	go func() {
		out, _ := cmd.CombinedOutput()
		done <- out
	}()
	select {
	case out := <-done:
		t.Logf("nvim output: %s", out)
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("Neovim did not finish")
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("the driver wrote nothing: %v", err)
	}
	got := string(data)
	t.Logf("Neovim saw:\n%s", got)
	for _, want := range []string{
		"diagnostic 11:9 torchlint TL101 `total += loss` keeps every step's autograd graph alive",
		"href https://github.com/torchlint/torchlint/blob/main/docs/rules/TL101.md",
		"action Accumulate `.detach()` (unsafe)",
		"action Disable TL101 for this line",
		"line         total += loss.detach()",
		"cleared true",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Neovim's record lacks %q", want)
		}
	}
	fixed, _ := os.ReadFile(filepath.Join(project, "train.py"))
	if !strings.Contains(string(fixed), "total += loss.detach()\n    return total") {
		t.Errorf("the quick fix was not saved:\n%s", fixed)
	}
}
