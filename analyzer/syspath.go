package analyzer

import (
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"
)

// sysPathDirs returns the folders the file puts on Python's import path
// (`sys.path.append("../common")`, `sys.path.insert(0, ...)`), each as a
// slash-separated path relative to the file's own folder: where its
// absolute imports may also be found. A relative path is taken from the
// file's folder, as when the script runs from there. Only paths the file
// spells out are followed: string literals, `__file__` through
// `os.path.dirname`, `abspath`, `realpath`, `join` and `pardir`, and
// pathlib's `Path(__file__).parent` and `.parents[k]`, directly or through
// a module-level name bound once.
func (m *Model) sysPathDirs() []string {
	if !bytes.Contains(m.File.Src, []byte("sys.path")) {
		return nil
	}
	var out []string
	for _, call := range m.sysPathCalls() {
		args := m.Args(call)
		i := 0
		if m.CallName(call) == "sys.path.insert" {
			i = 1
		}
		if i >= len(args) {
			continue
		}
		for _, v := range m.pathArgs(args[i]) {
			p, ok := m.pathValue(v, 0)
			if !ok || path.IsAbs(p) {
				continue
			}
			p = path.Clean(p)
			if p != "." && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// pathArgs returns the values a path argument of sys.path's may hold:
// itself, or, for a parameter of a module-level function (`def
// add_path(path): sys.path.insert(0, path)`, the `_init_paths.py` of
// many research code bases), the argument each call of the function in
// the file passes there (`add_path(osp.join(this_dir, '..', 'lib'))`).
func (m *Model) pathArgs(arg NodeID) []NodeID {
	f := m.File
	arg = f.Unparen(arg)
	b := m.Resolve(arg)
	if f.Kind(arg) != KindIdentifier || b == nil || b.Kind != BindParam {
		return []NodeID{arg}
	}
	def := m.ScopeNode(arg)
	if def == Root || m.ScopeNode(def) != Root {
		return nil
	}
	pos := slices.Index(m.PositionalParams(def), b.Name)
	if pos < 0 {
		return nil
	}
	name := m.FunctionName(def)
	var out []NodeID
	for i := range f.Nodes {
		id := NodeID(i)
		if f.Nodes[i].Kind != KindCall || m.ScopeNode(id) != Root {
			continue
		}
		fn := f.Unparen(f.Field(id, FieldFunction))
		if f.Kind(fn) != KindIdentifier || !f.TextIs(fn, name) {
			continue
		}
		if cb := m.Resolve(fn); cb == nil || cb.Stmt != def {
			continue
		}
		if args := m.Args(id); pos < len(args) {
			out = append(out, args[pos])
		}
	}
	return out
}

// plainString returns the value of a string literal without escapes or
// interpolation (`"../common"`, `r'..'`).
func plainString(text string) (string, bool) {
	prefix, body, ok := StringBody(text)
	switch {
	case !ok, prefix != "" && prefix != "r" && prefix != "R":
		return "", false
	case prefix == "" && strings.Contains(body, `\`):
		return "", false
	}
	return body, true
}

// StringBody splits the text of a string literal into its prefix (`r`,
// `b`, `f`, `rb`, ...) and what its quotes hold, escapes as written; ok
// is false for text that is no single quoted literal.
func StringBody(lit string) (prefix, body string, ok bool) {
	quoted := strings.TrimLeft(lit, "rRbBuUfF")
	for _, q := range []string{`"""`, "'''", `"`, "'"} {
		if len(quoted) >= 2*len(q) && strings.HasPrefix(quoted, q) && strings.HasSuffix(quoted, q) {
			return lit[:len(lit)-len(quoted)], quoted[len(q) : len(quoted)-len(q)], true
		}
	}
	return "", "", false
}

// sysPathCalls returns the file's calls of `sys.path.append` and
// `sys.path.insert`.
func (m *Model) sysPathCalls() []NodeID {
	f := m.File
	var out []NodeID
	for i := range f.Nodes {
		id := NodeID(i)
		if f.Kind(id) == KindCall {
			if q := m.CallName(id); q == "sys.path.append" || q == "sys.path.insert" {
				out = append(out, id)
			}
		}
	}
	return out
}

// pathValue evaluates e as a path relative to the file's folder, where
// the file itself is "__file__"'s folder "." joined with its name.
func (m *Model) pathValue(e NodeID, depth int) (string, bool) {
	f := m.File
	if depth > 8 {
		return "", false
	}
	e = f.Unparen(e)
	switch f.Kind(e) {
	case KindString:
		return plainString(f.Text(e))
	case KindIdentifier:
		if f.TextIs(e, "__file__") {
			return "./__file__", true
		}
		bs := m.ReachingBindings(e)
		if len(bs) != 1 || bs[0].Kind != BindAssign || bs[0].Unpacked || bs[0].Value == NoNode {
			return "", false
		}
		return m.pathValue(bs[0].Value, depth+1)
	case KindAttribute:
		attr := f.Text(f.Field(e, FieldAttribute))
		obj := f.Field(e, FieldObject)
		if q := m.QualifiedName(e); q == "os.path.pardir" || q == "os.pardir" {
			return "..", true
		}
		if attr == "parent" {
			p, ok := m.pathValue(obj, depth+1)
			return parentPath(p), ok
		}
	case KindBinaryOperator:
		// `'%s/../common' % os.path.dirname(os.path.realpath(__file__))`
		left, right := f.Unparen(f.Field(e, FieldLeft)), f.Unparen(f.Field(e, FieldRight))
		if !f.TextIs(f.Field(e, FieldOperator), "%") || f.Kind(left) != KindString {
			return "", false
		}
		format, ok := plainString(f.Text(left))
		if !ok || strings.Count(format, "%") != 1 || !strings.HasPrefix(format, "%s") {
			return "", false
		}
		p, ok := m.pathValue(right, depth+1)
		return p + format[2:], ok
	case KindSubscript:
		// `Path(__file__).parents[1]`
		val, idx := f.Unparen(f.Field(e, FieldValue)), f.Field(e, FieldSubscript)
		if f.Kind(val) == KindAttribute && f.TextIs(f.Field(val, FieldAttribute), "parents") && f.Kind(idx) == KindInteger {
			p, ok := m.pathValue(f.Field(val, FieldObject), depth+1)
			if !ok {
				return "", false
			}
			n, err := strconv.Atoi(f.Text(idx))
			if err != nil || n < 0 || n > 9 {
				return "", false
			}
			for k := 0; k <= n; k++ {
				p = parentPath(p)
			}
			return p, true
		}
	case KindCall:
		args := m.Args(e)
		q := m.CallName(e)
		switch q {
		case "os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "pathlib.Path", "os.fspath":
			if len(args) == 1 {
				return m.pathValue(args[0], depth+1)
			}
		case "os.path.dirname":
			if len(args) == 1 {
				p, ok := m.pathValue(args[0], depth+1)
				return parentPath(p), ok
			}
		case "os.path.join":
			var parts []string
			for _, a := range args {
				p, ok := m.pathValue(a, depth+1)
				if !ok {
					return "", false
				}
				parts = append(parts, p)
			}
			return path.Join(parts...), len(parts) > 0
		case "os.getcwd":
			return ".", true
		}
		// `Path(__file__).resolve()`, `.absolute()`
		if fn := f.Unparen(f.Field(e, FieldFunction)); f.Kind(fn) == KindAttribute && len(args) == 0 {
			switch f.Text(f.Field(fn, FieldAttribute)) {
			case "resolve", "absolute":
				return m.pathValue(f.Field(fn, FieldObject), depth+1)
			}
		}
	}
	return "", false
}

// parentPath is the folder that holds p, a path relative to the file's
// folder: ".." for ".", "../.." for "..".
func parentPath(p string) string {
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasSuffix(p, "/..") {
		return path.Join(p, "..")
	}
	return path.Dir(p)
}
