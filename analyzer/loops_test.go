package analyzer

import (
	"strings"
	"testing"
)

func TestLoopRoles(t *testing.T) {
	m := model(t, `import torch


class Runner(torch.nn.Module):
    def one(self, frame):
        with torch.no_grad():
            return self.net(frame)

    def video(self, frames):
        return [self.net(f) for f in frames]

    def loops(self, frames, videos, layers, loader, optimizer, inps, paths):
        for frame in frames:
            self.one(frame)
        for x in frames:
            self.forward(x)
        for v in videos:
            self.video(v)
        for layer in layers:
            inps = layer(inps)
        for i in range(len(layers)):
            block = layers[i].cuda()
            for j in range(len(inps)):
                inps[j] = block(inps[j])
        for x, y in loader:
            optimizer.step()
        for p in paths:
            torch.save({}, p)
`)
	cases := []struct {
		header string
		role   LoopRole
	}{
		{"for frame in frames", LoopItem},
		{"for x in frames", LoopItem},
		{"for v in videos", LoopOther},
		{"for layer in layers", LoopModules},
		{"for i in range(len(layers))", LoopModules},
		{"for j in range(len(inps))", LoopItem},
		{"for x, y in loader", LoopStep},
		{"for p in paths", LoopOther},
	}
	for _, c := range cases {
		loop := NoNode
		for i := range m.File.Nodes {
			id := NodeID(i)
			if m.File.Kind(id) == KindForStatement && strings.HasPrefix(m.File.Text(id), c.header) {
				loop = id
				break
			}
		}
		if loop == NoNode {
			t.Fatalf("no loop %q", c.header)
		}
		if got := m.LoopRole(loop); got != c.role {
			t.Errorf("%s: role %d, want %d", c.header, got, c.role)
		}
	}
}

func TestOnSomeIterations(t *testing.T) {
	m := model(t, `def f(model, frames, k, steps):
    for i, frame in enumerate(frames):
        model(frame)
        if i % k == 0:
            a()
        if i == 0:
            b()
        if i in steps:
            c()
        if i < k:
            d()
        if frame is not None:
            e()
        if i == 0:
            pass
        else:
            g()
        if not i:
            h()
        if i != 0 or frame is None:
            pass
        else:
            j()
        for t in range(k):
            if t == 0:
                l()
        if i % k:
            continue
        n()
`)
	cases := []struct {
		call string
		some bool
	}{
		{"a()", true}, {"b()", true}, {"c()", true}, {"d()", false}, {"e()", false},
		{"g()", false}, {"h()", true}, {"j()", true}, {"l()", false}, {"n()", true},
	}
	loop := m.EnclosingLoop(find(t, m.File, KindCall, "model(frame)", 0))
	for _, c := range cases {
		if got := m.OnSomeIterations(loop, find(t, m.File, KindCall, c.call, 0)); got != c.some {
			t.Errorf("%s: on some iterations %v, want %v", c.call, got, c.some)
		}
	}
}
