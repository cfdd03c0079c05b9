"""Pre-0.4 inference code that relies on volatile Variables."""
import torch
from torch.autograd import Variable


class Variable2:
    def __init__(self, value, volatile=False):
        self.value = value


def evaluate(model, loader):
    model.eval()
    correct = 0
    for images, labels in loader:
        images = Variable(images.cuda(), volatile=True)  # want: TL202 "no effect since PyTorch 0.4"
        labels = Variable(labels.cuda(), volatile=True)  # ok: no model takes the labels; the input's finding is the evaluation's
        out = model(images)  # want: TL201
        correct += (out.argmax(1) == labels).sum().item()
    return correct


def run_batch(model, x, train):
    x = torch.autograd.Variable(x, volatile=not train)  # want: TL202 "volatile=not train"
    return model(x)


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        x = Variable(x, requires_grad=False)  # ok: training: the graph is back-propagated, the flag is harmless
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def score(model, batch):
    inputs = Variable(batch, requires_grad=False)  # want: TL202 "does not disable autograd"
    logits = model(inputs)  # want: TL201
    return logits.softmax(-1).tolist()


@torch.no_grad()
def evaluate_modern(model, loader):
    for x, _ in loader:
        x = Variable(x, volatile=True)  # ok: grad is already disabled by the decorator
        model(x)


def wrap(x):
    a = Variable(x)  # ok: no volatile flag
    b = Variable(x, volatile=False)  # ok: volatile=False asks for nothing
    c = Variable2(x, volatile=True)  # ok: not torch's Variable
    d = Variable(x, requires_grad=True)  # ok: asks for gradients
    e = Variable(x, requires_grad=False)  # ok: not fed to a model here
    return a, b, c, d, e


class Recommender(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.items = torch.nn.Embedding(n, 8)
        self.head = torch.nn.Linear(8, 1)

    def forward(self, idx):
        # ok: a model's own forward runs in its caller's grad mode; a leftover wrapper on an index
        items = self.items(Variable(idx, requires_grad=False))
        return self.head(items)


def to_var(x, volatile=False):
    return Variable(x.cuda(), volatile=volatile)  # ok: every call this file shows leaves the flag off


def train_with(model, loader, optimizer):
    for x, y in loader:
        loss = (model(to_var(x)) - to_var(y)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def as_input(x, volatile=False):
    return Variable(x, volatile=volatile)  # want: TL202 "`volatile=volatile` has had no effect"


def score_loader(model, loader):
    return [model(as_input(x, volatile=True)).argmax(1).tolist() for x in loader]  # want: TL201


def wrap_any(x, volatile):
    return Variable(x, volatile=volatile)  # want: TL202 "`volatile=volatile`"


def get_batch(source, i, evaluation=False):
    return Variable(source[i], volatile=evaluation)  # want: TL202(medium) "`volatile=evaluation`"


class Ranker(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.proj = torch.nn.Linear(n, n)
        self.score = torch.nn.Linear(n, 1)

    def pool(self, doc):
        # ok: a method the forward pass calls runs in its caller's grad mode
        doc = Variable(torch.FloatTensor(doc), requires_grad=False)
        return self.proj(doc).max(0)[0]

    def scores(self, docs):
        return torch.stack([self.score(self.pool(d)) for d in docs])

    def forward(self, good, bad):
        return self.scores(good), self.scores(bad)

    def emit_one(self, docs):
        query = Variable(torch.FloatTensor(docs[0]), requires_grad=False)  # want: TL202 "does not disable autograd"
        return self.score(self.proj(query)).tolist()  # want: TL201

    def predict(self, doc):
        doc = Variable(torch.FloatTensor(doc), requires_grad=False)  # want: TL202 "does not disable autograd"
        return self.score(self.proj(doc)).tolist()  # want: TL201


def evaluate_on(model, loader, criterion, use_gpu):
    model.eval()
    total = 0.0
    for images, labels in loader:
        if use_gpu:
            images = Variable(images, volatile=True).cuda()  # want: TL202 "no effect since PyTorch 0.4"
            labels = Variable(labels, volatile=True).cuda()  # ok: the labels, beside the input
        else:
            images = Variable(images, volatile=True)  # want: TL202 "no effect since PyTorch 0.4"
            labels = Variable(labels, volatile=True)  # ok: the labels, beside the input
        out = model(images)  # want: TL201
        total += criterion(out, labels).item()
    return total
