package analyzer

// What the project's answers reach. A file's summary is its own: it is
// computed without the project's facts (see Summarize). The rules ran
// before it with the facts, and most of what they worked out read none
// of them: a function's scopes, its calls, whether a local value
// carries a graph. Each memoized answer records whether its computation
// read an answer of the project, directly or through another memoized
// answer that did; SetFacts(nil) drops those alone, and the summary
// reuses the rest.
//
// An answer of the project is one that differs from what the file
// alone gives: a non-nil Lookup, a star import resolved, a question
// whose path is another with facts at hand (trainSwitchByName).

// readFact notes that an answer of the project was read.
func (m *Model) readFact() { m.factReads++ }

// readsSince reports whether an answer of the project was read since
// m.factReads was n.
func (m *Model) readsSince(n uint64) bool { return m.factReads != n }

// taintedValue wraps a memo entry whose computation read the project's
// facts.
type taintedValue struct{ v any }

// memoHit returns a memo entry's value, noting the project's answers
// it rests on.
func (m *Model) memoHit(v any) any {
	if t, ok := v.(taintedValue); ok {
		m.readFact()
		return t.v
	}
	return v
}

// memoStore is what the memo keeps for v, computed since m.factReads
// was n.
func (m *Model) memoStore(v any, n uint64) any {
	if m.readsSince(n) {
		return taintedValue{v}
	}
	return v
}

// The memoized grad modes, carries and IsForwardCall answers keep the
// same mark in a bit of their own.
const (
	gradTainted    GradMode   = 0x80
	carryTainted   carryState = 0x80
	gradAtTainted  int8       = 0x40
	forwardTainted int8       = 0x4
)

// marked returns a memoized grad mode, carry state or per-node answer
// (GradModeAt's, IsForwardCall's) without its mark,
// noting the project's answers it rests on.
func marked[T GradMode | carryState | int8](m *Model, v, bit T) T {
	if v&bit != 0 {
		m.readFact()
	}
	return v &^ bit
}

// mark is what the memo keeps for v, computed since m.factReads was n.
func mark[T GradMode | carryState | int8](m *Model, v, bit T, n uint64) T {
	if m.readsSince(n) {
		return v | bit
	}
	return v
}

func (m *Model) gradHit(g GradMode) GradMode { return marked(m, g, gradTainted) }

func (m *Model) gradStore(g GradMode, n uint64) GradMode { return mark(m, g, gradTainted, n) }

// helperAnswer is Helper's memoized answer.
type helperAnswer struct {
	o       *Object
	tainted bool
}

// callName is CallName's memoized answer.
type callName struct {
	q       string
	tainted bool
}

// dropFacts forgets what the facts in hand were read for, keeping the
// rest of what was worked out.
func (m *Model) dropFacts() {
	if m.factReads == 0 {
		return
	}
	for k, g := range m.funcGrad {
		if g&gradTainted != 0 {
			delete(m.funcGrad, k)
		}
	}
	for k, g := range m.decoGrad {
		if g&gradTainted != 0 {
			delete(m.decoGrad, k)
		}
	}
	for k, s := range m.carries {
		if s&carryTainted != 0 {
			delete(m.carries, k)
		}
	}
	for k, v := range m.memo {
		if _, ok := v.(taintedValue); ok {
			delete(m.memo, k)
		}
	}
	for k, c := range m.callNames {
		if c.tainted {
			delete(m.callNames, k)
		}
	}
	for k, h := range m.helpers {
		if h.tainted {
			delete(m.helpers, k)
		}
	}
	for i, g := range m.gradAt {
		if g >= 0 && g&gradAtTainted != 0 {
			m.gradAt[i] = -1
		}
	}
	for i, a := range m.forwardAt {
		if a&forwardTainted != 0 {
			m.forwardAt[i] = 0
		}
	}
	if m.evidenceTainted {
		m.evidence, m.evidenceTainted = nil, false
	}
	m.factReads = 0
}

func (m *Model) carryHit(s carryState) carryState { return marked(m, s, carryTainted) }

func (m *Model) carryStore(s carryState, n uint64) carryState { return mark(m, s, carryTainted, n) }

// gradAtHit returns the memoized GradModeAt of id, which is known.
func (m *Model) gradAtHit(id NodeID) GradMode {
	return GradMode(marked(m, m.gradAt[id], gradAtTainted))
}
