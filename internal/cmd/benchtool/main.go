// Command benchtool is the helper of scripts/bench, which times whole
// torchlint processes; it is not installed.
//
//	benchtool parse LIST    read and parse, with tree-sitter alone, the files of LIST
//	benchtool pick LIST     choose the two files that the edit runs use
//	benchtool lsp [flags] -- SERVER-COMMAND...
//	                        time a language server's diagnostics
//	benchtool plot TITLE XLABEL YLABEL
//	                        draw the table on standard input as an SVG line chart
//
// LIST names one file a line, relative to the working folder, as
// `torchlint check --show-files` prints them; "-" reads the list from
// standard input.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/internal/workers"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `Usage:
  benchtool parse LIST
  benchtool copy LIST
  benchtool pick LIST
  benchtool lsp -root DIR -edit FILE [-other FILE] [-append TEXT] [-grace D] [-timeout D] -- SERVER-COMMAND...
  benchtool plot TITLE XLABEL YLABEL < TABLE > SVG
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "parse":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		err = parse(args[1], false, stdout)
	case "copy":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		err = parse(args[1], true, stdout)
	case "pick":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		err = pick(args[1], stdout)
	case "lsp":
		return lspCommand(args[1:], stdout, stderr)
	case "plot":
		err = plot(args[1:], os.Stdin, stdout)
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "benchtool: %v\n", err)
		return 1
	}
	return 0
}

// readList returns the paths of a list file, leaving out blank lines.
func readList(name string) ([]string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, err
	}
	var paths []string
	for line := range strings.Lines(string(data)) {
		if p := strings.TrimRight(line, "\r\n"); p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// isPython reports whether a path is a Python source file, which the
// parse baseline reads (notebooks are left out: their code is in JSON).
func isPython(path string) bool {
	return strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi")
}

// parse is the floor that a check is compared with: it reads each Python
// file of the list and parses it with tree-sitter, on GOMAXPROCS
// goroutines, and does nothing else. It prints how many files and bytes
// it parsed. With withCopy, each file is parsed as a check parses it, its
// tree copied into the node array the analysis reads, and the number of
// nodes kept is printed too.
func parse(list string, withCopy bool, stdout io.Writer) error {
	all, err := readList(list)
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range all {
		if isPython(p) {
			paths = append(paths, p)
		}
	}
	var size, nodes atomic.Int64
	errs := make([]error, len(paths))
	workers.Run(0, len(paths), func(i int) {
		src, err := os.ReadFile(paths[i])
		if err != nil {
			errs[i] = err
			return
		}
		size.Add(int64(len(src)))
		if !withCopy {
			errs[i] = analyzer.ParseOnly(src)
			return
		}
		n, err := analyzer.ParseCopy(src)
		if err != nil {
			errs[i] = fmt.Errorf("%s: %w", paths[i], err)
		}
		nodes.Add(int64(n))
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d files, %d bytes", len(paths), size.Load())
	if withCopy {
		fmt.Fprintf(stdout, ", %d nodes", nodes.Load())
	}
	fmt.Fprintln(stdout)
	return nil
}

var (
	fromImport  = regexp.MustCompile(`^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w., ]+)`)
	plainImport = regexp.MustCompile(`^\s*import\s+([\w., ]+)`)
)

// pick chooses the two files of the runs that edit one: the file that the
// most other files of the list import (so that an edit of it may change
// what they report) and the largest of its importers. Where no file
// imports another, it takes the two largest files. It prints the edited
// file, then the other one (an empty line when the list has one file).
// Imports are read from the text, not resolved as torchlint would: this
// only has to find a likely pair.
func pick(list string, stdout io.Writer) error {
	var files []string
	all, err := readList(list)
	if err != nil {
		return err
	}
	size := map[string]int64{}
	for _, p := range all {
		if fi, err := os.Stat(p); err == nil && isPython(p) && fi.Mode().IsRegular() {
			files = append(files, p)
			size[p] = fi.Size()
		}
	}
	if len(files) == 0 {
		return errors.New("no Python files in the list")
	}
	// A file is known by its dotted module name and each of its suffixes,
	// since a script may import from its own folder or a sub-project's.
	byName := map[string][]string{}
	for _, f := range files {
		for _, n := range nameSuffixes(moduleName(f)) {
			byName[n] = append(byName[n], f)
		}
	}
	importers := map[string][]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		seen := map[string]bool{f: true}
		for _, name := range importedNames(f, src) {
			for _, g := range nearest(f, byName[name]) {
				if !seen[g] {
					seen[g] = true
					importers[g] = append(importers[g], f)
				}
			}
		}
	}
	larger := func(a, b string) int {
		return cmp.Or(cmp.Compare(size[b], size[a]), cmp.Compare(a, b))
	}
	slices.SortFunc(files, larger)
	edit := ""
	for _, f := range files {
		if len(importers[f]) == 0 || filepath.Base(f) == "__init__.py" {
			continue
		}
		if edit == "" || len(importers[f]) > len(importers[edit]) {
			edit = f
		}
	}
	other := ""
	if edit != "" {
		slices.SortFunc(importers[edit], larger)
		other = importers[edit][0]
	} else {
		edit = files[0]
		if len(files) > 1 {
			other = files[1]
		}
	}
	fmt.Fprintf(stdout, "%s\n%s\n", edit, other)
	return nil
}

// nearest keeps, of the files a name may refer to, those that share the
// most leading folders with the importing file: where each sub-project
// has its model.py, `import model` is the one beside the importer.
func nearest(importer string, candidates []string) []string {
	shared := func(f string) int {
		a := strings.Split(filepath.ToSlash(filepath.Dir(importer)), "/")
		b := strings.Split(filepath.ToSlash(filepath.Dir(f)), "/")
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	best := -1
	var out []string
	for _, c := range candidates {
		switch s := shared(c); {
		case s > best:
			best, out = s, []string{c}
		case s == best:
			out = append(out, c)
		}
	}
	return out
}

// moduleName is the dotted name of a file relative to the working folder:
// a/b/c.py is a.b.c and a/b/__init__.py is a.b.
func moduleName(path string) string {
	p := strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(filepath.Clean(path)), ".pyi"), ".py")
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/__init__"), "__init__")
	return strings.ReplaceAll(p, "/", ".")
}

// nameSuffixes returns a.b.c, b.c and c for a.b.c.
func nameSuffixes(name string) []string {
	out := []string{name}
	for i := range len(name) {
		if name[i] == '.' {
			out = append(out, name[i+1:])
		}
	}
	return out
}

// importedNames returns the dotted names that the import statements of a
// file may refer to: the module of `import a.b`, and for `from a import
// b` both a and a.b (b may be a submodule). Relative imports are made
// absolute from the file's folder.
func importedNames(path string, src []byte) []string {
	var names []string
	pkg := moduleName(filepath.Dir(path) + "/__init__.py")
	for line := range bytes.Lines(src) {
		if m := fromImport.FindSubmatch(line); m != nil {
			mod := string(m[2])
			if dots := len(m[1]); dots > 0 {
				base := pkg
				for range dots - 1 {
					base = base[:max(strings.LastIndexByte(base, '.'), 0)]
				}
				mod = strings.Trim(base+"."+mod, ".")
			}
			if mod != "" {
				names = append(names, mod)
			}
			for item := range strings.SplitSeq(string(m[3]), ",") {
				if f := strings.Fields(item); len(f) > 0 {
					names = append(names, strings.TrimPrefix(mod+"."+f[0], "."))
				}
			}
		} else if m := plainImport.FindSubmatch(line); m != nil {
			for item := range strings.SplitSeq(string(m[1]), ",") {
				if f := strings.Fields(item); len(f) > 0 {
					names = append(names, f[0])
				}
			}
		}
	}
	return names
}

// lspCommand starts a language server, opens two documents and edits one,
// and prints, one per line as "NAME SECONDS", how long each step took to
// get its diagnostics published:
//
//	open        from didOpen of the edited file to its diagnostics
//	open_other  from didOpen of the other file to its diagnostics
//	edited      from didChange of the edited file to its diagnostics
//	other       from that didChange to new diagnostics of the other file,
//	            or "none" if none came within -grace of the edited one's
//
// The edit appends -append to the file's text: by default a comment line,
// which changes no finding, so that the server has no new diagnostics of
// the other file to publish.
func lspCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchtool lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the workspace folder, where the server runs")
	edit := fs.String("edit", "", "the file to open and edit")
	other := fs.String("other", "", "another file to open (optional)")
	appendText := fs.String("append", "\n# edited\n", "the text the edit appends")
	grace := fs.Duration("grace", time.Second, "how long to wait for the other file's diagnostics after the edited one's")
	timeout := fs.Duration("timeout", 2*time.Minute, "how long to wait for any diagnostics")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *edit == "" || fs.NArg() == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	times, err := timeServer(*root, *edit, *other, *appendText, *grace, *timeout, fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "benchtool lsp: %v\n", err)
		return 1
	}
	for _, t := range times {
		fmt.Fprintf(stdout, "%s %s\n", t.name, t.value)
	}
	return 0
}

type timing struct{ name, value string }

type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	return errors.Join(p.WriteCloser.Close(), p.ReadCloser.Close())
}

type publication struct {
	uri protocol.DocumentURI
	at  time.Time
}

func timeServer(root, edit, other, appendText string, grace, timeout time.Duration, command []string) (times []timing, err error) {
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	docURI := func(p string) protocol.DocumentURI {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return uri.File(p)
	}
	text := func(p string) (string, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		b, err := os.ReadFile(p)
		return string(b), err
	}
	editText, err := text(edit)
	if err != nil {
		return nil, err
	}
	otherText := ""
	if other != "" {
		if otherText, err = text(other); err != nil {
			return nil, err
		}
	}

	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := false
	defer func() {
		if !exited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	ctx := context.Background()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{out, in}))
	published := make(chan publication, 64)
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			at := time.Now()
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				published <- publication{p.URI, at}
			}
		}
		return reply(ctx, nil, nil)
	})
	// next waits for diagnostics of u, dropping those of other documents.
	next := func(u protocol.DocumentURI, wait time.Duration) (time.Time, bool) {
		deadline := time.After(wait)
		for {
			select {
			case p := <-published:
				if p.uri == u {
					return p.at, true
				}
			case <-deadline:
				return time.Time{}, false
			case <-conn.Done():
				return time.Time{}, false
			}
		}
	}
	seconds := func(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var init protocol.InitializeResult
	if _, err := conn.Call(callCtx, protocol.MethodInitialize, map[string]any{
		"processId": os.Getpid(), "rootUri": uri.File(root), "capabilities": map[string]any{},
		"workspaceFolders": []protocol.WorkspaceFolder{{URI: string(uri.File(root)), Name: filepath.Base(root)}},
	}, &init); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := conn.Notify(ctx, protocol.MethodInitialized, map[string]any{}); err != nil {
		return nil, err
	}

	open := func(p, text string) (time.Duration, error) {
		u := docURI(p)
		start := time.Now()
		if err := conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
			TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "python", Version: 1, Text: text},
		}); err != nil {
			return 0, err
		}
		at, ok := next(u, timeout)
		if !ok {
			return 0, fmt.Errorf("no diagnostics for %s within %s of opening it", p, timeout)
		}
		return at.Sub(start), nil
	}
	d, err := open(edit, editText)
	if err != nil {
		return nil, err
	}
	times = append(times, timing{"open", seconds(d)})
	if other != "" {
		d, err := open(other, otherText)
		if err != nil {
			return nil, err
		}
		times = append(times, timing{"open_other", seconds(d)})
	}
	// Let the diagnostics that the opens published for the other
	// document arrive, so that only those of the edit are counted.
	for drained := false; !drained; {
		select {
		case <-published:
		case <-time.After(200 * time.Millisecond):
			drained = true
		}
	}

	editURI := docURI(edit)
	start := time.Now()
	if err := conn.Notify(ctx, protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: editURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: editText + appendText}},
	}); err != nil {
		return nil, err
	}
	// The other document's diagnostics may come first only if the server
	// publishes them before those of the edited one; keep either.
	var editedAt, otherAt time.Time
	otherURI := docURI(other)
	deadline := time.After(timeout)
	for editedAt.IsZero() {
		select {
		case p := <-published:
			switch {
			case p.uri == editURI:
				editedAt = p.at
			case other != "" && p.uri == otherURI && otherAt.IsZero():
				otherAt = p.at
			}
		case <-deadline:
			return nil, fmt.Errorf("no diagnostics for %s within %s of editing it", edit, timeout)
		case <-conn.Done():
			return nil, errors.New("the server closed the connection")
		}
	}
	times = append(times, timing{"edited", seconds(editedAt.Sub(start))})
	if other != "" {
		if otherAt.IsZero() {
			otherAt, _ = next(otherURI, grace)
		}
		value := "none"
		if !otherAt.IsZero() {
			value = seconds(otherAt.Sub(start))
		}
		times = append(times, timing{"other", value})
	}

	if _, err := conn.Call(callCtx, protocol.MethodShutdown, nil, nil); err != nil {
		return nil, fmt.Errorf("shutdown: %w", err)
	}
	_ = conn.Notify(ctx, protocol.MethodExit, nil)
	_ = in.Close()
	exited = true
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			return nil, fmt.Errorf("the server: %w", err)
		}
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("the server did not exit after shutdown and exit; killed: %w", <-waited)
	}
	return times, nil
}
