"""Classes that name themselves among their bases: a model wrapping the
library class of the same name, and two classes that derive from each
other (a NameError at import, but a file the linter must get through)."""
from lib import Model


class Model(Model):
    def forward(self, x):
        return x * 2


class A(B):
    def forward(self, x):
        return x


class B(A):
    def forward(self, x):
        return x


def run(x):
    m = Model()
    m.eval()
    return [m(x).sum().item() for _ in range(3)]  # want: TL201 "m\(x\)"
