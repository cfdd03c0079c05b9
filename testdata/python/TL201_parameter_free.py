# A module that holds no parameter records no graph on inputs that need
# none, however it is written: buffers registered by name, builtins and
# exceptions in its methods, layer classes picked from a table, its own
# methods called through a local name, `self(x)` in a method of its own.
# A parameter, a layer with weights from the same table, or a layer held
# next to the buffers keeps the finding.
import copy

import torch
import torch.nn as nn
from torchvision.ops import batched_nms


class Grid(nn.Module):
    """Anchor boxes from registered buffers: nothing to train."""

    def __init__(self, sizes, levels=3):
        super().__init__()
        if levels < 1:
            raise ValueError("levels must be positive")
        self.register_buffer("sizes", torch.as_tensor(sizes))
        self.names = sorted(set(str(s) for s in sizes))
        self.levels = levels

    def forward(self, x):
        h, w = x.shape[-2:]
        base = torch.zeros(h, w, 2) + self.sizes.view(1, 1, -1)[..., :2]
        return base if all(s > 0 for s in (h, w)) else base.flip(0)

    def show(self, x):
        return self(x).cpu()


class Kernel(nn.Module):
    """A smoothed bin: its shape function called through a local name."""

    def __init__(self, low, high):
        super().__init__()
        self.register_buffer("low", torch.tensor(low))
        self.register_buffer("high", torch.tensor(high))

    def shifted(self, x, shift):
        return torch.exp(-((x - shift) ** 2))

    def forward(self, x):
        fn = self.shifted
        return torch.where(x < self.low, fn(x, self.low), torch.where(x > self.high, fn(x, self.high), 1.0))


class PoolN(nn.Module):
    """Average pooling in one, two or three dimensions."""

    def __init__(self, dims, kernel=2):
        super().__init__()
        pool = {1: nn.AvgPool1d, 2: nn.AvgPool2d, 3: nn.AvgPool3d}[dims]
        self.pool = pool(kernel)

    def forward(self, x):
        return self.pool(x)


CONVS = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}


class ConvN(nn.Module):
    """A convolution picked from a table: it has weights."""

    def __init__(self, dims, channels):
        super().__init__()
        conv = CONVS[dims]
        self.conv = conv(channels, channels, 3)

    def forward(self, x):
        return self.conv(x)


class ScaledGrid(nn.Module):
    """Buffers, and a parameter of its own."""

    def __init__(self, sizes):
        super().__init__()
        self.register_buffer("sizes", torch.as_tensor(sizes))
        self.gain = nn.Parameter(torch.ones(1))

    def forward(self, x):
        return x * self.gain + self.sizes.sum()


class GridHead(nn.Module):
    """Buffers, and a layer with weights held next to them."""

    def __init__(self, sizes):
        super().__init__()
        self.register_buffer("sizes", torch.as_tensor(sizes))
        self.head = nn.Linear(4, 4)

    def forward(self, x):
        return self.head(x) + self.sizes.sum()

    def show(self, x):
        return self(x).cpu()


class Sampler(nn.Module):
    """A forward alone that a method of its own calls: it stands for a model."""

    def forward(self, s):
        return s

    def sample(self, s):
        return self(s)


class Pyramid(nn.Module):
    """Grids of several levels, in containers, iterated by its forward."""

    def __init__(self, sizes):
        super().__init__()
        self.levels = nn.ModuleList()
        for s in sizes:
            self.levels.append(Grid([s]))
        self.extra = nn.ModuleList([Grid([s * 2]) for s in sizes])
        self.decode = self.merge

    def merge(self, boxes):
        keep = batched_nms(boxes[:, :4], boxes[:, 4], boxes[:, 5].long(), 0.5)
        return boxes[keep]

    def forward(self, feats):
        out = [level(f) for f, level in zip(feats, self.levels)]
        for i, level in enumerate(self.extra):
            out.append(level(feats[i]))
        return self.decode(torch.cat([o.flatten(0, 1) for o in out]))


class Handed(nn.Module):
    """Holds the modules it is given: they may have parameters."""

    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList()
        for layer in layers:
            self.layers.append(layer)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Deep(nn.Module):
    """A container of layers with weights."""

    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def plot_grid(images):
    grid = Grid([8, 16])
    grid.eval()
    return [grid(x).tolist() for x in images]  # ok: TL201 buffers only


def plot_own(images):
    grid = Grid([8, 16])
    return [grid.show(x).tolist() for x in images]  # ok: TL201 `self(x)` of a module with buffers only


def plot_kernel(xs):
    k = Kernel(0.2, 0.8)
    k.eval()
    return [k(x).tolist() for x in xs]  # ok: TL201 buffers only, its method called by a local name


def pooled(xs):
    pool = PoolN(2)
    pool.eval()
    return [pool(x).tolist() for x in xs]  # ok: TL201 a pooling layer picked from a table


def convolved(xs):
    conv = ConvN(2, 3)
    conv.eval()
    return [conv(x).tolist() for x in xs]  # want: TL201 "conv\(x\)"


def scaled(xs):
    g = ScaledGrid([8])
    g.eval()
    return [g(x).tolist() for x in xs]  # want: TL201 "g\(x\)"


def headed(xs):
    g = GridHead([8])
    return [g.show(x).tolist() for x in xs]  # want: TL201 "g\.show\(x\)"


def sampled(states):
    policy = Sampler()
    policy.eval()
    return [policy.sample(s).tolist() for s in states]  # want: TL201 "policy\.sample\(s\)"


def pyramids(batches):
    p = Pyramid([8, 16])
    p.eval()
    return [p(feats).tolist() for feats in batches]  # ok: TL201 containers of modules with buffers only


def handed(xs, layers):
    h = Handed(layers)
    h.eval()
    return [h(x).tolist() for x in xs]  # want: TL201 "h\(x\)"


def deep(xs):
    d = Deep(3)
    d.eval()
    return [d(x).tolist() for x in xs]  # want: TL201 "d\(x\)"


class AbstractModel(nn.Module):
    """Its forward is its subclasses': the layers are theirs too."""

    def __init__(self, classes):
        super().__init__()
        self.classes = classes

    def forward(self, x):
        raise NotImplementedError

    def predict(self, x):
        return self(x).argmax(-1).tolist()  # want: TL201 "self\(x\)"


class ConcreteModel(AbstractModel):
    def __init__(self, classes):
        super().__init__(classes)
        self.fc = nn.Linear(4, classes)

    def forward(self, x):
        return self.fc(x)


class Shaped(nn.Module):
    """A forward of its own, but a subclass in this file adds layers."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(1))

    def forward(self, x):
        return x * self.scale

    def show(self, x):
        print(self(x).tolist())  # want: TL201 "self\(x\)"


class LearnedShape(Shaped):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x) * self.scale


class Clones(nn.Module):
    """Copies of the layer it is handed: parameters."""

    def __init__(self, layer, n):
        super().__init__()
        self.layers = nn.ModuleList()
        for _ in range(n):
            self.layers.append(copy.deepcopy(layer))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Slots(nn.Module):
    """A slot of a container set to the layer it is handed."""

    def __init__(self, head):
        super().__init__()
        self.layers = nn.ModuleList([nn.Identity()])
        self.layers[0] = head

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Headed(nn.Module):
    """A property that gives a module it holds, called through a local name."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(1))
        self._head = nn.Linear(4, 4)

    @property
    def head(self):
        return self._head

    def forward(self, x):
        fn = self.head
        return fn(x) * self.scale


def cloned(xs):
    c = Clones(nn.Linear(4, 4), 3)
    c.eval()
    return [c(x).tolist() for x in xs]  # want: TL201 "c\(x\)"


def slotted(xs):
    s = Slots(nn.Linear(4, 4))
    s.eval()
    return [s(x).tolist() for x in xs]  # want: TL201 "s\(x\)"


def propertied(xs):
    h = Headed()
    h.eval()
    return [h(x).tolist() for x in xs]  # want: TL201 "h\(x\)"
