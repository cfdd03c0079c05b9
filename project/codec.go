package project

import (
	"encoding/binary"
	"errors"

	"github.com/torchlint/torchlint/analyzer"
)

// The cache stores summaries, recorded questions and findings in a
// compact binary form of its own: varints, and each string written once
// per record and referred to by number afterwards (a summary repeats its
// file's path and the refs it calls). A record decodes with no type
// information and no reflection, which matters because a warm run
// decodes thousands of them in a fresh process. A change of any stored
// type must change the codec, and cacheFormat with it; a round-trip test
// over every field keeps them in step.

var errCorrupt = errors.New("damaged record")

type encoder struct {
	b    []byte
	strs map[string]uint64
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// str writes s, or the number of an equal string written before.
func (e *encoder) str(s string) {
	if s == "" {
		e.uint(0)
		return
	}
	if i, ok := e.strs[s]; ok {
		e.uint(i<<1 | 1)
		return
	}
	if e.strs == nil {
		e.strs = map[string]uint64{}
	}
	e.strs[s] = uint64(len(e.strs)) + 1
	e.uint(uint64(len(s)) << 1)
	e.b = append(e.b, s...)
}

// count writes the length of a slice or map, keeping nil apart from
// empty.
func (e *encoder) count(n int, isNil bool) {
	if isNil {
		e.uint(0)
	} else {
		e.uint(uint64(n) + 1)
	}
}

func (e *encoder) bytes(b []byte) {
	e.count(len(b), b == nil)
	e.b = append(e.b, b...)
}

func (e *encoder) strings(ss []string) {
	e.count(len(ss), ss == nil)
	for _, s := range ss {
		e.str(s)
	}
}

// pairs writes keys and their values in the order of the keys, as a map
// of them was written.
func (e *encoder) pairs(ps analyzer.Pairs) {
	e.count(len(ps), ps == nil)
	for _, p := range ps {
		e.str(p.Key)
		e.str(p.Value)
	}
}

type decoder struct {
	b    []byte
	strs []string
	err  error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.fail()
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

func (d *decoder) str() string {
	v := d.uint()
	switch {
	case v == 0:
		return ""
	case v&1 == 1:
		if i := v >> 1; i >= 1 && i <= uint64(len(d.strs)) {
			return d.strs[i-1]
		}
		d.fail()
		return ""
	}
	n := v >> 1
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	d.strs = append(d.strs, s)
	return s
}

// count reads what encoder.count wrote: the length, and whether the
// value was nil. A length longer than the bytes left is damage.
func (d *decoder) count() (n int, isNil bool) {
	v := d.uint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)) {
		d.fail()
		return 0, true
	}
	return int(v - 1), false
}

// raw reads n bytes, sharing the decoder's buffer.
func (d *decoder) raw(n int) []byte {
	if n > len(d.b) {
		d.fail()
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) bytes() []byte {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	return d.raw(n)
}

func (d *decoder) strings() []string {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

// pairs reads what pairs wrote: keys in order, each once.
func (d *decoder) pairs() analyzer.Pairs {
	n, isNil := d.count()
	if isNil || d.err != nil {
		return nil
	}
	ps := make(analyzer.Pairs, n)
	for i := range ps {
		ps[i] = analyzer.Pair{Key: d.str(), Value: d.str()}
		if i > 0 && ps[i-1].Key >= ps[i].Key {
			d.fail()
		}
	}
	return ps
}

// done reports the decoder's error, or damage when bytes are left over.
func (d *decoder) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	return d.err
}

func encodeSummary(s *analyzer.Summary) []byte {
	var e encoder
	e.pairs(s.Bindings)
	e.strings(s.Stars)
	e.strings(s.All)
	e.pairs(s.Instances)
	e.count(len(s.Classes), s.Classes == nil)
	for _, c := range s.Classes {
		e.str(c.Name)
		e.int(int64(c.Line))
		e.strings(c.Bases)
		e.bool(c.Module)
		e.bool(c.NoGraph)
		e.bool(c.ByForward)
		e.strings(c.FreezeParams)
		e.bool(c.Plain)
		e.bool(c.ParamFree)
		e.int(int64(c.ParamFreeBases))
		e.strings(c.ParamFreeHolds)
		e.bool(c.NoModeLayers)
		e.int(int64(c.ModeLayerBases))
		e.bool(c.ModeLayers)
		e.strings(c.FrozenWith)
		e.strings(c.NoGraphWith)
		e.pairs(c.AttrClasses)
	}
	e.count(len(s.Funcs), s.Funcs == nil)
	for _, f := range s.Funcs {
		r := f.RareFacts()
		e.str(f.Name)
		e.int(int64(f.Line))
		e.uint(uint64(f.Grad))
		e.bool(f.GradSet)
		e.bool(f.Escapes)
		e.bool(f.ReturnsGraph)
		e.strings(r.Returns)
		e.site(r.Forward)
		e.bool(r.HandsBack)
		e.bool(r.HostOnly)
		e.bool(r.Abstract)
		e.bool(r.NeedsGrad)
		e.site(r.EmptyCache)
		e.paramCalls(r.ParamCalls)
		e.paramCalls(r.Keeps)
		for _, s := range r.StepFields() {
			e.site(*s)
		}
		e.uint(uint64(f.Activation))
		e.site(r.ActivationAt)
		e.ints(r.GraphParams)
		e.ints(r.BackpropParams)
		e.strings(r.BackpropAttrs)
		e.strings(r.BackpropVia)
		e.uint(uint64(f.Wraps))
		e.bool(f.WrapsSet)
		e.uint(uint64(f.Enters))
		e.bool(f.EntersSet)
		e.int(int64(r.TupleLen))
		e.ints(r.GraphElems)
		e.intLists(r.ElemParams)
		e.ints(r.BackpropElems)
		e.bool(f.OwnNoGrad)
		e.bool(r.DropsArgs)
		e.bool(r.StateGraph)
		e.ints(r.CutParams)
		e.str(r.EndsReturns)
		e.ints(r.FreezesParams)
		e.str(r.Makes)
		e.strings(r.MakesArgs)
	}
	e.count(len(s.Calls), s.Calls == nil)
	for _, c := range s.Calls {
		e.str(c.Callee)
		e.str(c.Caller)
		e.int(int64(c.Line))
		e.uint(uint64(c.Grad))
		e.bool(c.Inherit)
		e.bool(c.Always)
		e.bool(c.Loop)
		e.int(int64(c.Eval))
		e.uint(uint64(c.Module))
		e.uint(uint64(c.Frozen))
	}
	e.strings(s.Escapes)
	e.strings(s.Backprops)
	e.count(len(s.BackpropsVia), s.BackpropsVia == nil)
	for _, v := range s.BackpropsVia {
		e.str(v.Callee)
		e.int(int64(v.Index))
		e.str(v.Result)
	}
	e.bool(s.Test)
	e.bool(s.Foreign)
	e.strings(s.SysPath)
	return e.b
}

func (e *encoder) site(s *analyzer.Site) {
	e.bool(s != nil)
	if s == nil {
		return
	}
	e.str(s.Path)
	e.str(s.Abs)
	e.int(int64(s.Line))
	e.int(int64(s.Column))
	e.str(s.Text)
}

// paramCalls writes a list of parameters by position, each with its
// site (a function's ParamCalls or Keeps).
func (e *encoder) paramCalls(pcs []analyzer.ParamCall) {
	e.count(len(pcs), pcs == nil)
	for _, pc := range pcs {
		e.int(int64(pc.Index))
		e.site(pc.Site)
		e.bool(pc.Bounded)
	}
}

// ints writes a list of small integers (a function's GraphParams).
func (e *encoder) ints(v []int) {
	e.count(len(v), v == nil)
	for _, i := range v {
		e.int(int64(i))
	}
}

// intLists writes lists of ints, nil apart from empty.
func (e *encoder) intLists(v [][]int) {
	e.count(len(v), v == nil)
	for _, l := range v {
		e.ints(l)
	}
}

// intLists reads what encoder.intLists wrote.
func (d *decoder) intLists() [][]int {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	out := make([][]int, n)
	for i := range out {
		out[i] = d.ints()
	}
	return out
}

// ints reads what encoder.ints wrote.
func (d *decoder) ints() []int {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = int(d.int())
	}
	return out
}

func decodeSummary(b []byte) (*analyzer.Summary, error) {
	d := decoder{b: b}
	s := &analyzer.Summary{
		Bindings:  d.pairs(),
		Stars:     d.strings(),
		All:       d.strings(),
		Instances: d.pairs(),
	}
	if n, isNil := d.count(); !isNil {
		s.Classes = make([]analyzer.ClassSummary, n)
		for i := range s.Classes {
			c := &s.Classes[i]
			c.Name = d.str()
			c.Line = int(d.int())
			c.Bases = d.strings()
			c.Module = d.bool()
			c.NoGraph = d.bool()
			c.ByForward = d.bool()
			c.FreezeParams = d.strings()
			c.Plain = d.bool()
			c.ParamFree = d.bool()
			c.ParamFreeBases = int(d.int())
			c.ParamFreeHolds = d.strings()
			c.NoModeLayers = d.bool()
			c.ModeLayerBases = int(d.int())
			c.ModeLayers = d.bool()
			c.FrozenWith = d.strings()
			c.NoGraphWith = d.strings()
			c.AttrClasses = d.pairs()
		}
	}
	if n, isNil := d.count(); !isNil {
		s.Funcs = make([]analyzer.FuncSummary, n)
		var r analyzer.RareFuncFacts
		for i := range s.Funcs {
			f := &s.Funcs[i]
			r = analyzer.RareFuncFacts{}
			f.Name = d.str()
			f.Line = int(d.int())
			f.Grad = d.grad()
			f.GradSet = d.bool()
			f.Escapes = d.bool()
			f.ReturnsGraph = d.bool()
			r.Returns = d.strings()
			r.Forward = d.site()
			r.HandsBack = d.bool()
			r.HostOnly = d.bool()
			r.Abstract = d.bool()
			r.NeedsGrad = d.bool()
			r.EmptyCache = d.site()
			r.ParamCalls = d.paramCalls()
			r.Keeps = d.paramCalls()
			for _, s := range r.StepFields() {
				*s = d.site()
			}
			f.Activation = analyzer.Activation(d.uint())
			r.ActivationAt = d.site()
			r.GraphParams = d.ints()
			r.BackpropParams = d.ints()
			r.BackpropAttrs = d.strings()
			r.BackpropVia = d.strings()
			f.Wraps = d.grad()
			f.WrapsSet = d.bool()
			f.Enters = d.grad()
			f.EntersSet = d.bool()
			r.TupleLen = int(d.int())
			r.GraphElems = d.ints()
			r.ElemParams = d.intLists()
			r.BackpropElems = d.ints()
			f.OwnNoGrad = d.bool()
			r.DropsArgs = d.bool()
			r.StateGraph = d.bool()
			r.CutParams = d.ints()
			r.EndsReturns = d.str()
			r.FreezesParams = d.ints()
			r.Makes = d.str()
			r.MakesArgs = d.strings()
			if !r.IsZero() {
				rare := r
				f.Rare = &rare
			}
		}
	}
	if n, isNil := d.count(); !isNil {
		s.Calls = make([]analyzer.CallSummary, n)
		for i := range s.Calls {
			c := &s.Calls[i]
			c.Callee = d.str()
			c.Caller = d.str()
			c.Line = int(d.int())
			c.Grad = d.grad()
			c.Inherit = d.bool()
			c.Always = d.bool()
			c.Loop = d.bool()
			c.Eval = int(d.int())
			c.Module = uint16(d.uint())
			c.Frozen = uint16(d.uint())
		}
	}
	s.Escapes = d.strings()
	s.Backprops = d.strings()
	if n, isNil := d.count(); !isNil {
		s.BackpropsVia = make([]analyzer.BackpropVia, n)
		for i := range s.BackpropsVia {
			v := &s.BackpropsVia[i]
			v.Callee = d.str()
			v.Index = int(d.int())
			v.Result = d.str()
		}
	}
	s.Test = d.bool()
	s.Foreign = d.bool()
	s.SysPath = d.strings()
	if err := d.done(); err != nil {
		return nil, err
	}
	return s, nil
}

func (d *decoder) grad() analyzer.GradMode {
	g := d.uint()
	if g > uint64(analyzer.GradUnknown) {
		d.fail()
	}
	return analyzer.GradMode(g)
}

func (d *decoder) site() *analyzer.Site {
	if !d.bool() {
		return nil
	}
	return &analyzer.Site{Path: d.str(), Abs: d.str(), Line: int(d.int()), Column: int(d.int()), Text: d.str()}
}

// encodeAsked writes questions and their answers in order, as a map of
// them was written.
func encodeAsked(qs Questions) []byte {
	var e encoder
	e.pairs(qs)
	return e.b
}

func (d *decoder) paramCalls() []analyzer.ParamCall {
	n, isNil := d.count()
	if isNil {
		return nil
	}
	pcs := make([]analyzer.ParamCall, n)
	for i := range pcs {
		pcs[i].Index = int(d.int())
		pcs[i].Site = d.site()
		pcs[i].Bounded = d.bool()
	}
	return pcs
}

// decodeAsked reads what encodeAsked wrote.
func decodeAsked(b []byte) (Questions, error) {
	d := decoder{b: b}
	qs := d.pairs()
	return qs, d.done()
}

// encodeFindings writes diagnostics without their rule and path: the
// rule is stored by code, the path is the entry's.
func encodeFindings(diags []analyzer.Diagnostic) []byte {
	var e encoder
	e.count(len(diags), false)
	for _, d := range diags {
		e.str(d.Rule.Code)
		e.str(d.Message)
		e.uint(uint64(d.Start))
		e.uint(uint64(d.End))
		e.position(d.Pos)
		e.position(d.EndPos)
		e.strings(d.Source)
		e.bool(d.Suppressed)
		e.bool(d.Fix != nil)
		if f := d.Fix; f != nil {
			e.str(f.Message)
			e.uint(uint64(f.Applicability))
			e.count(len(f.Edits), f.Edits == nil)
			for _, ed := range f.Edits {
				e.uint(uint64(ed.Start))
				e.uint(uint64(ed.End))
				e.str(ed.New)
				e.position(ed.Pos)
				e.position(ed.EndPos)
			}
		}
		e.int(int64(d.Cell))
		e.int(int64(d.RawLine))
		e.int(int64(d.NoqaOffset))
		e.count(len(d.Related), d.Related == nil)
		for _, r := range d.Related {
			e.str(r.Path)
			e.int(int64(r.Line))
			e.int(int64(r.Column))
			e.str(r.Message)
			e.int(int64(r.Cell))
			e.int(int64(r.RawLine))
		}
		e.strings(d.Assumed)
		e.str(d.Once)
		e.str(d.Seldom)
	}
	return e.b
}

func (e *encoder) position(p analyzer.Position) {
	e.int(int64(p.Line))
	e.int(int64(p.Column))
}

func (d *decoder) position() analyzer.Position {
	return analyzer.Position{Line: int(d.int()), Column: int(d.int())}
}

func (d *decoder) uint32() uint32 {
	v := d.uint()
	if v > 1<<32-1 {
		d.fail()
	}
	return uint32(v)
}

// decodeFindings reads what encodeFindings wrote, with rule found by
// code through byCode; a code it does not know is an error (a rule this
// build does not have: the file is linted again).
func decodeFindings(b []byte, path string, byCode func(string) *analyzer.Rule) ([]analyzer.Diagnostic, error) {
	d := decoder{b: b}
	n, _ := d.count()
	diags := make([]analyzer.Diagnostic, 0, n)
	for range n {
		code := d.str()
		r := byCode(code)
		if r == nil {
			return nil, errors.New("unknown rule " + code)
		}
		diag := analyzer.Diagnostic{Rule: r, Path: path, Message: d.str(), Start: d.uint32(), End: d.uint32(),
			Pos: d.position(), EndPos: d.position(), Source: d.strings(), Suppressed: d.bool()}
		if d.bool() {
			f := &analyzer.Fix{Message: d.str(), Applicability: analyzer.Applicability(d.uint())}
			if f.Applicability > analyzer.Unsafe {
				d.fail()
			}
			if m, isNil := d.count(); !isNil {
				f.Edits = make([]analyzer.Edit, m)
				for i := range f.Edits {
					f.Edits[i] = analyzer.Edit{Start: d.uint32(), End: d.uint32(), New: d.str(), Pos: d.position(), EndPos: d.position()}
				}
			}
			diag.Fix = f
		}
		diag.Cell = int(d.int())
		diag.RawLine = int(d.int())
		diag.NoqaOffset = int(d.int())
		if m, isNil := d.count(); !isNil {
			diag.Related = make([]analyzer.Related, m)
			for i := range diag.Related {
				diag.Related[i] = analyzer.Related{Path: d.str(), Line: int(d.int()), Column: int(d.int()), Message: d.str(),
					Cell: int(d.int()), RawLine: int(d.int())}
			}
		}
		diag.Assumed = d.strings()
		diag.Once = d.str()
		diag.Seldom = d.str()
		if d.err != nil {
			return nil, d.err
		}
		diags = append(diags, diag)
	}
	if err := d.done(); err != nil {
		return nil, err
	}
	return diags, nil
}

// encodeAnswer writes the answer a question about the project got, as a
// string that changes whenever the answer does and that decodeAnswer
// reads back: "" for none (nil).
func encodeAnswer(o *analyzer.Object) string {
	if o == nil {
		return ""
	}
	var e encoder
	e.uint(uint64(o.Kind) + 1) // never 0: the string is never empty
	e.str(o.Site.Path)
	e.str(o.Site.Abs)
	e.int(int64(o.Site.Line))
	e.int(int64(o.Site.Column))
	e.str(o.Site.Text)
	e.bool(o.Module)
	e.bool(o.NoGraph)
	e.strings(o.FreezeParams)
	e.bool(o.Plain)
	e.bool(o.ParamFree)
	e.bool(o.NoModeLayers)
	e.bool(o.ModeLayers)
	e.strings(o.FrozenWith)
	e.strings(o.NoGraphWith)
	e.strings(o.ModuleAttrs)
	e.bool(o.ReturnsGraph)
	e.int(int64(o.TupleLen))
	e.ints(o.GraphElems)
	e.intLists(o.ElemParams)
	e.ints(o.BackpropElems)
	e.ints(o.GraphParams)
	e.ints(o.CutParams)
	e.str(o.EndsReturns)
	e.ints(o.FreezesParams)
	e.ints(o.BackpropParams)
	e.strings(o.BackpropAttrs)
	e.uint(uint64(o.Grad))
	e.bool(o.GradKnown)
	e.uint(uint64(o.Wraps))
	e.bool(o.WrapsKnown)
	e.uint(uint64(o.Enters))
	e.bool(o.EntersKnown)
	e.site(o.Forward)
	e.bool(o.HandsBack)
	e.bool(o.HostOnly)
	e.paramCalls(o.ParamCalls)
	e.site(o.EmptyCache)
	e.str(o.EmptyCacheBy)
	e.paramCalls(o.Keeps)
	for _, s := range o.StepFields() {
		e.site(*s)
	}
	e.uint(uint64(o.Activation))
	e.site(o.ActivationAt)
	e.bool(o.ResultBackprop)
	e.bool(o.CalledElsewhere)
	e.bool(o.CalledByName)
	e.site(o.NamedOff)
	e.site(o.CallersAssumed)
	e.site(o.RepeatedBy)
	e.site(o.EnabledBy)
	e.bool(o.EnabledElsewhere)
	e.paramCalls(o.EvalCalls)
	e.paramCalls(o.ModuleCalls)
	e.paramCalls(o.FrozenCalls)
	e.bool(o.DropsArgs)
	e.bool(o.StateGraph)
	e.bool(o.ByMethodName)
	e.strings(o.Classes)
	return string(e.b)
}

// decodeAnswer reads what encodeAnswer wrote.
func decodeAnswer(s string) (*analyzer.Object, error) {
	if s == "" {
		return nil, nil
	}
	d := decoder{b: []byte(s)}
	o := &analyzer.Object{}
	kind := d.uint()
	if kind == 0 {
		d.fail()
	}
	o.Kind = analyzer.ObjectKind(kind - 1)
	o.Site = analyzer.Site{Path: d.str(), Abs: d.str(), Line: int(d.int()), Column: int(d.int()), Text: d.str()}
	o.Module = d.bool()
	o.NoGraph = d.bool()
	o.FreezeParams = d.strings()
	o.Plain = d.bool()
	o.ParamFree = d.bool()
	o.NoModeLayers = d.bool()
	o.ModeLayers = d.bool()
	o.FrozenWith = d.strings()
	o.NoGraphWith = d.strings()
	o.ModuleAttrs = d.strings()
	o.ReturnsGraph = d.bool()
	o.TupleLen = int(d.int())
	o.GraphElems = d.ints()
	o.ElemParams = d.intLists()
	o.BackpropElems = d.ints()
	o.GraphParams = d.ints()
	o.CutParams = d.ints()
	o.EndsReturns = d.str()
	o.FreezesParams = d.ints()
	o.BackpropParams = d.ints()
	o.BackpropAttrs = d.strings()
	o.Grad = d.grad()
	o.GradKnown = d.bool()
	o.Wraps = d.grad()
	o.WrapsKnown = d.bool()
	o.Enters = d.grad()
	o.EntersKnown = d.bool()
	o.Forward = d.site()
	o.HandsBack = d.bool()
	o.HostOnly = d.bool()
	o.ParamCalls = d.paramCalls()
	o.EmptyCache = d.site()
	o.EmptyCacheBy = d.str()
	o.Keeps = d.paramCalls()
	for _, s := range o.StepFields() {
		*s = d.site()
	}
	o.Activation = analyzer.Activation(d.uint())
	o.ActivationAt = d.site()
	o.ResultBackprop = d.bool()
	o.CalledElsewhere = d.bool()
	o.CalledByName = d.bool()
	o.NamedOff = d.site()
	o.CallersAssumed = d.site()
	o.RepeatedBy = d.site()
	o.EnabledBy = d.site()
	o.EnabledElsewhere = d.bool()
	o.EvalCalls = d.paramCalls()
	o.ModuleCalls = d.paramCalls()
	o.FrozenCalls = d.paramCalls()
	o.DropsArgs = d.bool()
	o.StateGraph = d.bool()
	o.ByMethodName = d.bool()
	o.Classes = d.strings()
	if err := d.done(); err != nil {
		return nil, err
	}
	return o, nil
}
