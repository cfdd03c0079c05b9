package analyzer

import "testing"

func TestInitialisesCuda(t *testing.T) {
	m := model(t, `import torch
import numba
dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
gpu = torch.device(f"cuda:{rank}")
x = torch.zeros(3)
x.cuda()
x.to("cuda:1")
x.to(dev)
x.to(gpu)
x.to(torch.float16)
x.to("cpu")
torch.randn(2, device="cuda")
torch.load(path, map_location="cuda")
torch.load(path, map_location="cpu")
torch.cuda.set_device(0)
torch.cuda.synchronize()
torch.cuda.is_available()
torch.cuda.device_count()
torch.cuda.manual_seed(0)
torch.cuda.empty_cache()
torch.cuda.memory_allocated(device="cuda")
torch.device("cuda")
numba.cuda()
`)
	cases := []struct {
		call       string
		yes, maybe bool
	}{
		{"x.cuda()", true, false},
		{`x.to("cuda:1")`, true, false},
		{"x.to(dev)", true, true},
		{"x.to(gpu)", true, false},
		{"x.to(torch.float16)", false, false},
		{`x.to("cpu")`, false, false},
		{`torch.randn(2, device="cuda")`, true, false},
		{`torch.load(path, map_location="cuda")`, true, false},
		{`torch.load(path, map_location="cpu")`, false, false},
		{"torch.cuda.set_device(0)", true, false},
		{"torch.cuda.synchronize()", true, false},
		{"torch.cuda.is_available()", false, false},
		{"torch.cuda.device_count()", false, false},
		{"torch.cuda.manual_seed(0)", false, false},
		{"torch.cuda.empty_cache()", false, false},
		{`torch.cuda.memory_allocated(device="cuda")`, false, false},
		{`torch.device("cuda")`, false, false},
		{"numba.cuda()", false, false},
	}
	for _, c := range cases {
		call := find(t, m.File, KindCall, c.call, 0)
		yes, maybe := m.InitialisesCuda(call)
		if yes != c.yes || maybe != c.maybe {
			t.Errorf("InitialisesCuda(%s) = %v, %v; want %v, %v", c.call, yes, maybe, c.yes, c.maybe)
		}
	}
}

func TestCudaInitBefore(t *testing.T) {
	m := model(t, `import os
import torch

def helper():
    return torch.ones(1).cuda()

def early():
    os.environ["A"] = "1"

def late():
    os.environ["B"] = "1"

def branches(gpu):
    if gpu:
        torch.cuda.init()
    else:
        os.environ["C"] = "1"
    os.environ["D"] = "1"

def through():
    helper()
    os.environ["E"] = "1"

early()
torch.cuda.init()
early()
late()
`)
	cases := []struct {
		stmt         string
		found, maybe bool
	}{
		{`os.environ["A"] = "1"`, false, false}, // one call before CUDA use
		{`os.environ["B"] = "1"`, true, false},  // its only call comes after
		{`os.environ["C"] = "1"`, false, false}, // the other branch
		{`os.environ["D"] = "1"`, true, true},   // after a conditional init
		{`os.environ["E"] = "1"`, true, false},  // through helper()
	}
	for _, c := range cases {
		stmt := find(t, m.File, KindAssignment, c.stmt, 0)
		init, found := m.CudaInitBefore(stmt)
		if found != c.found || found && init.Maybe != c.maybe {
			t.Errorf("CudaInitBefore(%s) = %+v, %v; want found %v, maybe %v", c.stmt, init, found, c.found, c.maybe)
		}
	}
}
