package analyzer

import "strings"

// ModeLayers says whether the module e names has layers that compute
// otherwise in evaluation mode (dropout, batch norm, or code reading
// `self.training`), as far as this file shows: known is false when it
// is built by code the file does not hold, or is a parameter.
func (m *Model) ModeLayers(e NodeID) (known, has bool) {
	v := m.ModuleValue(e)
	if v == NoNode {
		return false, false
	}
	known, has = m.callLayers(v, 0)
	if has {
		return true, true
	}
	// A layer given to it after it is built (`model.fc =
	// nn.Sequential(nn.Dropout(0.5), nn.Linear(512, 10))`).
	f := m.File
	b := m.Resolve(rootName(f, e))
	for i := range f.Nodes {
		if f.Nodes[i].Kind != KindAssignment {
			continue
		}
		id := NodeID(i)
		left := f.Unparen(f.Field(id, FieldLeft))
		if k := f.Kind(left); k != KindAttribute && k != KindSubscript || !strings.HasPrefix(f.Text(left), f.Text(e)+".") && !strings.HasPrefix(f.Text(left), f.Text(e)+"[") {
			continue
		}
		if lb := m.Resolve(rootName(f, left)); b != nil && lb != nil && lb.Stmt != b.Stmt {
			continue // another binding of the name
		}
		val := f.Unparen(f.Field(id, FieldRight))
		if f.Kind(val) != KindCall {
			continue
		}
		k, h := m.callLayers(val, 0)
		if h {
			return true, true
		}
		if !k && !ScalarLiteral(f, val) && strings.HasPrefix(m.CallName(val), "torch.nn.") {
			known = false
		}
	}
	return known, false
}

// rootName returns the name an attribute or subscript chain starts with.
func rootName(f *File, e NodeID) NodeID {
	for {
		e = f.Unparen(e)
		k := f.Kind(e)
		if k != KindAttribute && k != KindSubscript {
			return e
		}
		e = f.FirstChild(e)
	}
}

// ModuleValue returns the call that built the module e names, through
// names, `.to(device)`-style calls and wrappers (DistributedDataParallel,
// torch.compile); NoNode when not known.
func (m *Model) ModuleValue(e NodeID) NodeID {
	f := m.File
	for depth := 0; depth < 8; {
		depth++
		e = f.Unparen(e)
		switch f.Kind(e) {
		case KindAttribute:
			if f.TextIs(f.Field(e, FieldAttribute), "module") {
				e = f.Field(e, FieldObject)
				continue
			}
			fallthrough
		case KindIdentifier:
			v := m.BoundValue(e)
			if v == NoNode {
				return NoNode
			}
			e = v
		case KindCall:
			if SelfReturning[m.MethodName(e)] && m.CallName(e) == "" {
				e = m.Receiver(e)
				continue
			}
			if ModuleWrappers[m.CallName(e)] {
				args := m.Args(e)
				if len(args) == 0 {
					return NoNode
				}
				e = args[0]
				continue
			}
			return e
		default:
			return NoNode
		}
	}
	return NoNode
}

// SelfReturning are the nn.Module methods that return the module itself.
var SelfReturning = map[string]bool{
	"to": true, "cuda": true, "cpu": true, "float": true, "half": true, "double": true, "bfloat16": true,
	"train": true, "eval": true, "requires_grad_": true, "type": true, "to_empty": true,
}

// ModuleWrappers wrap the module they are given, which computes their
// forward.
var ModuleWrappers = map[string]bool{
	"torch.nn.parallel.DistributedDataParallel": true, "torch.nn.DistributedDataParallel": true,
	"torch.nn.parallel.distributed.DistributedDataParallel": true,
	"torch.nn.DataParallel":                                 true, "torch.nn.parallel.DataParallel": true, "torch.compile": true,
}

// modeModuleClasses are the torch.nn layers that compute otherwise in
// evaluation mode.
func modeModuleClass(q string) bool {
	name, ok := strings.CutPrefix(q, "torch.nn.")
	return ok && (strings.Contains(name, "Dropout") || strings.Contains(name, "BatchNorm"))
}

// callLayers says whether the module a call builds has layers that
// compute otherwise in evaluation mode.
func (m *Model) callLayers(call NodeID, depth int) (known, has bool) {
	f := m.File
	if depth > 4 {
		return false, false
	}
	q := m.CallName(call)
	switch {
	case modeModuleClass(q), strings.HasPrefix(q, "torchvision.models.") && !strings.Contains(q, "_Weights"):
		return true, true
	case q == "torch.nn.Sequential" || q == "torch.nn.ModuleList" || q == "torch.nn.ModuleDict" || ModuleWrappers[q]:
		known = true
		for _, a := range m.Args(call) {
			a = f.Unparen(a)
			if f.Kind(a) == KindKeywordArgument {
				a = f.Unparen(f.Field(a, FieldValue))
			}
			k, h := false, false
			if v := m.ModuleValue(a); v != NoNode {
				k, h = m.callLayers(v, depth+1)
			}
			if h {
				return true, true
			}
			known = known && k
		}
		return known, false
	case strings.HasPrefix(q, "torch.nn.Transformer") || q == "torch.nn.MultiheadAttention" ||
		q == "torch.nn.LSTM" || q == "torch.nn.GRU" || q == "torch.nn.RNN":
		// Their dropout is a constructor argument; the Transformer
		// layers' defaults to 0.1.
		d := m.Keyword(call, "dropout")
		if d == NoNode {
			return true, strings.HasPrefix(q, "torch.nn.Transformer")
		}
		t := f.Text(f.Unparen(d))
		return true, t != "0" && t != "0.0" && t != "0."
	case strings.HasPrefix(q, "torch.nn."):
		return true, false // the other layers compute the same in both modes
	}
	callee := f.Unparen(f.Field(call, FieldFunction))
	if o := m.classElsewhere(callee); o != nil && (o.NoModeLayers || o.ModeLayers) {
		return true, o.ModeLayers // a class of another file of the project
	}
	if f.Kind(callee) != KindIdentifier {
		return false, false
	}
	b := m.Resolve(callee)
	if b == nil || b.Kind != BindClass {
		return false, false
	}
	return m.classLayers(b.Stmt, depth+1, nil)
}

// noModeLayersElsewhere reports whether e, an imported name, names a
// module class of another file of the project that has no layer that
// computes otherwise in evaluation mode (ClassSummary.NoModeLayers).
func (m *Model) noModeLayersElsewhere(e NodeID) bool {
	o := m.classElsewhere(e)
	return o != nil && o.NoModeLayers
}

// classElsewhere returns what the project knows of the layers of the
// class e names, an imported name of a class of another file of the
// project (WantLayers), or nil.
func (m *Model) classElsewhere(e NodeID) *Object {
	q := m.QualifiedName(e)
	if q == "" || isLibraryName(q) || !m.importedName(e) {
		return nil
	}
	if o := m.lookup(q, WantLayers); o != nil && o.Kind == ObjectClass {
		return o
	}
	return nil
}

// classLayers says whether a module class of this file has layers that
// compute otherwise in evaluation mode: ones it builds, ones of the
// classes of this file it builds or derives from, or code that reads
// `self.training`. It is not known when it derives from a class other
// than nn.Module, or calls a submodule it does not build itself.
//
// With bases non-nil, it takes the bases of the project, of this file or
// another, to have none (the project checks them: ClassSummary.ModeLayerBases),
// and counts them in *bases.
func (m *Model) classLayers(class NodeID, depth int, bases *int) (known, has bool) {
	f := m.File
	if depth > 4 || !m.IsModuleClass(class) {
		return false, false
	}
	known = true
	var inner *int
	if bases != nil {
		inner = new(int) // a base's own bases are its to count
	}
	inherits := false // a base of the project
	for _, base := range m.ClassBases(class) {
		switch q := m.QualifiedName(base); {
		case q == "torch.nn.Module":
		case bases != nil && q != "" && !isLibraryName(q) && m.importedName(base):
			*bases++
			inherits = true
		case bases == nil && m.classElsewhere(base) != nil && m.classElsewhere(base).ModeLayers:
			return true, true
		case bases == nil && m.noModeLayersElsewhere(base):
			inherits = true
		case f.Kind(base) == KindIdentifier:
			inherits = true
			b := m.Resolve(base)
			if b == nil || b.Kind != BindClass {
				return false, false
			}
			if bases != nil {
				*bases++
			}
			k, h := m.classLayers(b.Stmt, depth+1, inner)
			if h {
				return true, true
			}
			known = known && k
		default:
			return false, false
		}
	}
	built := map[string]bool{} // the attributes of self assigned a call that builds a module
	called := map[string]bool{}
	f.Walk(class, func(id NodeID) {
		if has {
			return
		}
		switch f.Kind(id) {
		case KindAttribute:
			if f.TextIs(f.Field(id, FieldObject), "self") && f.TextIs(f.Field(id, FieldAttribute), "training") {
				has = true
			}
		case KindCall:
			fn := f.Unparen(f.Field(id, FieldFunction))
			if f.Kind(fn) == KindAttribute && f.TextIs(f.Field(fn, FieldObject), "self") {
				called[f.Text(fn)] = true
			}
			k, h := m.callLayers(id, depth)
			has = has || h
			if !k {
				return
			}
			if p := f.Parent(id); f.Kind(p) == KindAssignment && f.Field(p, FieldRight) == id {
				built[strings.Join(strings.Fields(f.Text(f.Field(p, FieldLeft))), "")] = true
			}
		}
	})
	if has {
		return true, true
	}
	// A submodule the class calls but does not build (`self.backbone =
	// backbone`, `self.encoder = build_encoder(cfg)`) may have any layer;
	// one it never assigns, where it has bases of the project, is their
	// attribute or method (`self.body` built by the base), judged with
	// them.
	for attr := range called {
		if built[attr] || m.MethodOf(class, strings.TrimPrefix(attr, "self.")) != NoNode {
			continue
		}
		if !inherits || m.selfAttrs(class).count[attr] > 0 {
			return false, false
		}
	}
	return known, false
}
