package analyzer

import (
	"slices"
	"testing"
)

func TestSysPathDirs(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"import sys\nsys.path.append('../lib')\n", []string{"../lib"}},
		{"import sys\nsys.path.insert(0, r\"..\")\n", []string{".."}},
		{"import sys, os\nsys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n", []string{".."}},
		{"import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, 'common'))\n", []string{"../common"}},
		{"import sys\nfrom pathlib import Path\nFILE = Path(__file__).resolve()\nROOT = FILE.parents[1]\nsys.path.append(str(ROOT))\n", []string{".."}},
		{"import sys\nfrom pathlib import Path\nsys.path.append(str(Path(__file__).parent.parent / 'x'))\n", nil},
		{"import sys, os\nsys.path.append(os.getcwd())\nsys.path.append('.')\n", nil},
		{"import sys\nsys.path.append('/opt/lib')\nsys.path.append(f'../{name}')\nsys.path.append(root)\n", nil},
		{"import sys\np = '../a'\np = '../b'\nsys.path.append(p)\n", []string{"../b"}},
		{"import sys\np = '../a'\nif x:\n    p = '../b'\nsys.path.append(p)\n", nil},
		{"import sys\ndef setup():\n    sys.path.insert(0, '../../tools')\n", []string{"../../tools"}},
		{"import sys\nsys.path.append('../lib')\nsys.path.insert(0, '../lib/')\n", []string{"../lib"}},
		{"import sys, os\nsys.path.append('%s/../common' % os.path.dirname(os.path.realpath(__file__)))\n", []string{"../common"}},
		{"import sys, os\nsys.path.append('%s/%s' % (a, b))\n", nil},
		// A helper whose parameter goes on the path: each call's argument.
		{"import sys\nimport os.path as osp\ndef add_path(path):\n    if path not in sys.path:\n        sys.path.insert(0, path)\n" +
			"this_dir = osp.dirname(__file__)\nadd_path(osp.join(this_dir, '..', 'lib'))\nadd_path('../tools')\n", []string{"../lib", "../tools"}},
		{"import sys\ndef add_path(path):\n    sys.path.insert(0, path)\n", nil},
		{"import sys\nclass P:\n    def add(self, path):\n        sys.path.append(path)\nP().add('../lib')\n", nil},
	}
	for _, c := range cases {
		f, err := Parse("a.py", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := NewModel(f).sysPathDirs(); !slices.Equal(got, c.want) {
			t.Errorf("%q: sys.path folders %q, want %q", c.src, got, c.want)
		}
	}
}
