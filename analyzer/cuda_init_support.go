package analyzer

import "strings"

// CudaInit is a call that initialises CUDA (creates the context and the
// caching allocator), as found before some statement by CudaInitBefore.
type CudaInit struct {
	Call NodeID // the call that initialises CUDA
	// Through is the call of a function of this file that reaches Call,
	// when Call is not in the same function as the statement; NoNode
	// otherwise.
	Through NodeID
	// Caller is the call of the statement's own function that runs only
	// after Call (Call then lies in the caller's function); NoNode when
	// Call runs earlier in the statement's own function.
	Caller NodeID
	// Maybe says that Call runs only on some paths: under an if, in a
	// conditional expression, or with a device that is CUDA only when a
	// GPU is available.
	Maybe bool
}

// cudaInitCalls are the functions that initialise CUDA when called:
// they call torch.cuda._lazy_init() (or its C++ equivalent) before doing
// anything. Functions that CUDA users often call early but that do not
// initialise it are deliberately absent: is_available, device_count,
// is_initialized, manual_seed and manual_seed_all (queued until
// initialisation), empty_cache and the memory statistics (no-ops before
// initialisation), and torch.device (a descriptor).
var cudaInitCalls = map[string]bool{
	"torch.cuda.init":                                   true,
	"torch.cuda._lazy_init":                             true,
	"torch.cuda.set_device":                             true,
	"torch.cuda.current_device":                         true,
	"torch.cuda.synchronize":                            true,
	"torch.cuda.get_device_properties":                  true,
	"torch.cuda.get_device_name":                        true,
	"torch.cuda.get_device_capability":                  true,
	"torch.cuda.mem_get_info":                           true,
	"torch.cuda.set_per_process_memory_fraction":        true,
	"torch.cuda.memory.set_per_process_memory_fraction": true,
	"torch.cuda.get_rng_state":                          true,
	"torch.cuda.initial_seed":                           true,
	"torch.cuda.current_stream":                         true,
	"torch.cuda.default_stream":                         true,
	"torch.nn.DataParallel":                             true,
	"torch.nn.parallel.DataParallel":                    true,
}

// maxCudaInitDepth bounds how many calls deep CudaInitBefore looks, into
// the functions a statement's function calls and out to its callers.
const maxCudaInitDepth = 3

// InitialisesCuda reports whether call initialises CUDA: a `.cuda()`
// method call, a move or allocation onto a CUDA device (`.to("cuda")`,
// `torch.zeros(n, device="cuda")`, `torch.load(f, map_location="cuda")`),
// or one of the torch.cuda functions that initialise it. maybe is set when
// the device is CUDA only on some paths (`"cuda" if available else "cpu"`).
func (m *Model) InitialisesCuda(call NodeID) (yes, maybe bool) {
	f := m.File
	if f.Kind(call) != KindCall {
		return false, false
	}
	q := m.CallName(call)
	if cudaInitCalls[q] {
		return true, false
	}
	if strings.HasPrefix(q, "torch.cuda.") || q == "torch.device" {
		// The remaining torch.cuda functions take a device argument
		// without initialising (memory statistics, empty_cache).
		return false, false
	}
	if q != "" && !strings.HasPrefix(q, "torch.") {
		// A function of another library (numba.cuda.jit, cupy, ...).
		return false, false
	}
	method := m.MethodName(call)
	if q == "" && method == "cuda" {
		return true, false
	}
	var device NodeID
	switch {
	case q == "" && method == "to":
		device = m.Keyword(call, "device")
		if device == NoNode {
			if args := m.Args(call); len(args) > 0 {
				device = args[0]
			}
		}
	case q == "torch.load":
		device = m.Keyword(call, "map_location")
	default:
		// Tensor factories, modules built on a device and
		// `x.new_zeros(..., device=...)`.
		device = m.Keyword(call, "device")
	}
	if device == NoNode {
		return false, false
	}
	return m.IsCudaDevice(device)
}

// IsCudaDevice reports whether expr denotes a CUDA device: a string such
// as "cuda" or f"cuda:{rank}", torch.device of one, or a name assigned one.
// maybe is set when it is CUDA on only one arm of a conditional expression.
func (m *Model) IsCudaDevice(expr NodeID) (yes, maybe bool) {
	return m.isCudaDevice(expr, 0)
}

func (m *Model) isCudaDevice(expr NodeID, depth int) (yes, maybe bool) {
	f := m.File
	expr = f.Unparen(expr)
	if depth > 4 {
		return false, false
	}
	switch f.Kind(expr) {
	case KindString:
		s := stringPrefixText(f, expr)
		return s == "cuda" || strings.HasPrefix(s, "cuda:"), false
	case KindCall:
		if m.CallName(expr) == "torch.device" {
			arg := m.Keyword(expr, "type")
			if args := m.Args(expr); len(args) > 0 {
				arg = args[0]
			}
			return m.isCudaDevice(arg, depth+1)
		}
	case KindConditionalExpression:
		var some bool
		f.Children(expr, func(c NodeID) bool {
			if f.N(c).Field == FieldCondition {
				return true
			}
			if y, _ := m.isCudaDevice(c, depth+1); y {
				some = true
			}
			return true
		})
		return some, some
	case KindIdentifier:
		if v := m.AssignedValue(expr); v != NoNode {
			return m.isCudaDevice(v, depth+1)
		}
		// A parameter whose default is a CUDA device: CUDA unless the
		// caller passes another.
		if b := m.Resolve(expr); b != nil && b.Kind == BindParam {
			if k := f.Kind(b.Stmt); k == KindDefaultParameter || k == KindTypedDefaultParameter {
				if yes, _ := m.isCudaDevice(f.Field(b.Stmt, FieldValue), depth+1); yes {
					return true, true
				}
			}
		}
	}
	return false, false
}

// stringPrefixText returns the literal text of a string up to its first
// interpolation: all of a plain string, the leading part of an f-string.
func stringPrefixText(f *File, s NodeID) string {
	if f.Nodes[s].FirstChild == NoNode {
		// A plain string: the parser keeps no parts for it.
		t := strings.TrimLeft(f.Text(s), "rRbBuU")
		for _, q := range []string{`"""`, "'''", `"`, "'"} {
			if len(t) >= 2*len(q) && strings.HasPrefix(t, q) && strings.HasSuffix(t, q) {
				return t[len(q) : len(t)-len(q)]
			}
		}
		return t
	}
	var b strings.Builder
	first := true
	f.Children(s, func(c NodeID) bool {
		if first {
			first = false // the opening quote and prefix
			return true
		}
		t := f.Text(c)
		if strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "{{") {
			return false // an interpolation
		}
		if f.Nodes[c].NextSibling == NoNode {
			return false // the closing quote
		}
		b.WriteString(t)
		return true
	})
	return b.String()
}

// CudaInitBefore returns a call that may have initialised CUDA before
// stmt runs: earlier in stmt's function (or at module level, earlier in
// the module), directly or in a function of this file called earlier (a
// few calls deep), or, when every call of stmt's function in this file
// runs after such a call, before each of those calls. Code in functions
// that are defined but not called before stmt does not count, nor does
// code in a branch that excludes stmt (`if gpu: x.cuda() else: stmt`).
func (m *Model) CudaInitBefore(stmt NodeID) (CudaInit, bool) {
	return m.cudaInitBefore(stmt, 0)
}

func (m *Model) cudaInitBefore(stmt NodeID, depth int) (CudaInit, bool) {
	f := m.File
	scope := m.ScopeNode(stmt)
	region := scope
	if scope != Root {
		region = f.Field(scope, FieldBody)
	}
	var found CudaInit
	ok := false
	consider := func(c CudaInit) {
		if !ok || found.Maybe && !c.Maybe {
			found, ok = c, true
		}
	}
	for i := region; i < stmt && i != NoNode; i++ {
		n := &f.Nodes[i]
		switch n.Kind {
		case KindFunctionDefinition, KindLambda:
			// Defined here, run only when called.
			i = f.subtreeEnd(i) - 1
			continue
		case KindCall:
		default:
			continue
		}
		if f.Contains(i, stmt) || ExclusiveBranches(f, i, stmt) {
			continue
		}
		if yes, maybe := m.InitialisesCuda(i); yes {
			consider(CudaInit{Call: i, Through: NoNode, Caller: NoNode, Maybe: maybe || conditionalWithin(f, i, stmt)})
		} else if depth < maxCudaInitDepth {
			for _, def := range m.runsFunctions(i) {
				if inner, yes := m.functionInitsCuda(def, depth+1); yes {
					consider(CudaInit{Call: inner.Call, Through: i, Caller: NoNode, Maybe: inner.Maybe || conditionalWithin(f, i, stmt)})
					break
				}
			}
		}
		if ok && !found.Maybe {
			return found, true
		}
	}
	if ok || scope == Root || depth >= maxCudaInitDepth {
		return found, ok
	}
	// Every call of this function in the file comes after CUDA use.
	m.indexCalls()
	sites := m.callSites[scope]
	if len(sites) == 0 || m.escapes[scope] {
		return CudaInit{}, false
	}
	var first CudaInit
	for i, site := range sites {
		if f.Contains(scope, site) {
			return CudaInit{}, false // recursion
		}
		c, yes := m.cudaInitBefore(site, depth+1)
		if !yes {
			return CudaInit{}, false
		}
		if i == 0 {
			first = c
			if first.Caller == NoNode {
				first.Caller = site
			}
		}
		first.Maybe = first.Maybe || c.Maybe
	}
	return first, true
}

// functionInitsCuda reports whether running def may initialise CUDA,
// directly or through the functions of this file it calls, depth calls
// deep at most.
func (m *Model) functionInitsCuda(def NodeID, depth int) (CudaInit, bool) {
	type key struct {
		def   NodeID
		depth int
	}
	type answer struct {
		c  CudaInit
		ok bool
	}
	a := m.Memo(key{def, depth}, func() any {
		f := m.File
		body := f.Field(def, FieldBody)
		if body == NoNode {
			return answer{}
		}
		end := f.subtreeEnd(body)
		var through []NodeID
		for i := body; i < end; i++ {
			switch f.Nodes[i].Kind {
			case KindFunctionDefinition, KindLambda:
				i = f.subtreeEnd(i) - 1
				continue
			case KindCall:
			default:
				continue
			}
			if yes, maybe := m.InitialisesCuda(i); yes {
				return answer{CudaInit{Call: i, Through: NoNode, Caller: NoNode, Maybe: maybe || conditionalWithin(f, i, body)}, true}
			}
			through = append(through, i)
		}
		if depth >= maxCudaInitDepth {
			return answer{}
		}
		for _, call := range through {
			for _, callee := range m.runsFunctions(call) {
				if callee == def {
					continue
				}
				if c, yes := m.functionInitsCuda(callee, depth+1); yes {
					c.Maybe = c.Maybe || conditionalWithin(f, call, body)
					return answer{c, true}
				}
			}
		}
		return answer{}
	}).(answer)
	return a.c, a.ok
}

// runsFunctions returns the functions of this file that call runs: the
// function or method it calls, or the __init__ of a class it instantiates.
func (m *Model) runsFunctions(call NodeID) []NodeID {
	f := m.File
	if def := m.LocalCallee(call); def != NoNode {
		return []NodeID{def}
	}
	fn := f.Field(call, FieldFunction)
	if f.Kind(fn) != KindIdentifier {
		return nil
	}
	b := m.Resolve(fn)
	if b == nil || b.Kind != BindClass {
		return nil
	}
	if init := m.MethodOf(b.Stmt, "__init__"); init != NoNode {
		return []NodeID{init}
	}
	return nil
}

// ExclusiveBranches reports whether a and b lie in different arms of the
// same if statement or conditional expression, so that at most one runs.
func ExclusiveBranches(f *File, a, b NodeID) bool {
	for n, child := f.Parent(a), a; n != NoNode; n, child = f.Parent(n), n {
		if !f.Contains(n, b) {
			continue
		}
		armA := child
		switch f.Kind(n) {
		case KindIfStatement, KindConditionalExpression:
			armB := b
			for f.Parent(armB) != n {
				armB = f.Parent(armB)
			}
			if f.N(armA).Field == FieldCondition || f.N(armB).Field == FieldCondition {
				return false
			}
			return armA != armB
		}
		return false
	}
	return false
}

// conditionalWithin reports whether id runs only on some paths through
// region: it lies under an if, elif, else, except or match arm, or in a
// conditional expression, below region.
func conditionalWithin(f *File, id, region NodeID) bool {
	for n, child := f.Parent(id), id; n != NoNode && n != region && !f.Contains(n, region); n, child = f.Parent(n), n {
		switch f.Kind(n) {
		case KindIfStatement, KindConditionalExpression, KindBooleanOperator:
			if f.N(child).Field != FieldCondition && f.N(child).Field != FieldLeft {
				return true
			}
		case KindElifClause, KindElseClause, KindExceptClause, KindMatchStatement:
			return true
		}
	}
	return false
}
