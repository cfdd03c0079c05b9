# Entries of a dict a loss returns, and numbers from methods annotated
# with a scalar type: only what carries a graph keeps one.
import torch
import torch.nn as nn


class WeightedLoss(nn.Module):
    def __init__(self, base=10.0):
        super().__init__()
        self.base = base
        self.ce = nn.CrossEntropyLoss()

    def forward(self, logits, targets, length: int):
        weight = self.base * (20.0 / max(length, 10.0))
        total = self.ce(logits, targets) * weight
        with torch.no_grad():
            acc = (logits.argmax(-1) == targets).float().mean()
        return {"total": total, "acc": acc.item(), "weight": weight, "ce": total / weight}


def seq_loss(logits, targets):
    out = {"total": nn.functional.cross_entropy(logits, targets)}
    hits = 0
    for t in targets.tolist():
        if t == 0:
            hits += 1
    out["rate"] = hits / max(len(targets), 1) * 100.0
    out["nll"] = out["total"] * 1.0
    return out


def train(model, loader, optimizer):
    crit = WeightedLoss()
    acc_sum, weight_sum, ce_sum = 0.0, 0.0, 0.0
    for x, y in loader:
        optimizer.zero_grad()
        parts = crit(model(x), y, 12)
        parts["total"].backward()
        optimizer.step()
        acc_sum += parts["acc"]  # ok: `acc.item()` in every return of WeightedLoss.forward
        weight_sum += parts["weight"]  # ok: arithmetic on numbers
        ce_sum += parts["ce"]  # want: TL101 "after its backward"
    return acc_sum, weight_sum, ce_sum


def train_seq(model, loader, optimizer):
    rate_sum, nll_sum = 0.0, 0.0
    for x, y in loader:
        optimizer.zero_grad()
        out = seq_loss(model(x), y)
        out["total"].backward()
        optimizer.step()
        rate_sum += out["rate"]  # ok: `out["rate"] = hits / ... * 100.0` in seq_loss, hits a counter
        nll_sum += out["nll"]  # want: TL101 "after its backward"
    return rate_sum, nll_sum


class Staged:
    def __init__(self, policy):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters())
        self.updates = 0

    def coef(self) -> float:
        return 0.2 if self.updates < 100 else 0.0

    def aux(self, out):
        return out.abs().mean()

    def update(self, batches):
        coef_sum, aux_sum = 0, 0
        for obs, target in batches:
            out = self.policy(obs)
            c = self.coef()
            a = self.aux(out)
            loss = ((out - target) ** 2).mean() + c * a
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            coef_sum += c  # ok: `-> float`
            aux_sum += a  # want: TL101 "after its backward"
        return coef_sum, aux_sum


class GatedLoss(nn.Module):
    """Its weight is arithmetic on a number the caller gives; its logits
    are what the caller gives."""

    def __init__(self, gate=0.5):
        super().__init__()
        self.gate = gate

    def forward(self, logits, targets, max_len):
        weight = self.gate * (20.0 / max(max_len, 10.0))
        total = nn.functional.cross_entropy(logits, targets) * weight
        hits = (logits.argmax(-1) == targets).sum().item()
        return {"total": total, "weight": weight, "logits": logits, "exact": float(hits == len(targets))}


def train_gated(model, loader, optimizer, max_len):
    crit = GatedLoss()
    weight_sum, exact_sum, logit_sum, total_sum = 0.0, 0.0, 0.0, 0.0
    for x, y in loader:
        optimizer.zero_grad()
        parts = crit(model(x), y, 12)
        parts["total"].backward()
        optimizer.step()
        weight_sum += parts["weight"]  # ok: derives from `max_len`, given 12
        exact_sum += parts.get("exact", 0.0)  # ok: a float, read with get
        logit_sum += parts["logits"].mean()  # want: TL101 "after its backward"
        total_sum += parts.get("total")  # want: TL101 "after its backward"
    return weight_sum, exact_sum, logit_sum, total_sum


def train_gated_keywords(model, loader, optimizer):
    crit = GatedLoss()
    logit_sum = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        parts = crit(logits=model(x), targets=y, max_len=12)
        parts["total"].backward()
        optimizer.step()
        logit_sum += parts["logits"].mean()  # want: TL101 "after its backward"
    return logit_sum


# The loss reaches the loop as a parameter: every call of the file passes
# a WeightedLoss, so its entries are WeightedLoss.forward's.
def train_given(model, loader, optimizer, crit):
    acc_sum, ce_sum = 0.0, 0.0
    for x, y in loader:
        optimizer.zero_grad()
        parts = crit(model(x), y, 12)
        parts["total"].backward()
        optimizer.step()
        acc_sum += parts["acc"]  # ok: `acc.item()` in WeightedLoss.forward, the class every call passes
        ce_sum += parts["ce"]  # want: TL101 "after its backward"
    return acc_sum, ce_sum


def train_either(model, loader, optimizer, crit):
    acc_sum = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        parts = crit(model(x), y, 12)
        parts["total"].backward()
        optimizer.step()
        acc_sum += parts["acc"]  # want: TL101 "after its backward"
    return acc_sum


def main(model, loader, optimizer, use_gate):
    weighted = WeightedLoss(base=5.0)
    train_given(model, loader, optimizer, weighted)
    train_given(model, loader, optimizer, WeightedLoss())
    # Two classes: what `crit` is in train_either is not known, and
    # GatedLoss has no "acc" entry to read.
    train_either(model, loader, optimizer, WeightedLoss())
    train_either(model, loader, optimizer, GatedLoss())


class Masks:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.usage = 0

    def train_epoch(self, loader):
        # `model` is handed in: what its forward puts in each entry of
        # the dict it returns is not seen, and an entry may be built
        # detached (`gate.data.clone()`).
        for x, y in loader:
            out = self.model.forward(x)
            gate = out["gate"]
            loss = nn.functional.cross_entropy(out["y"], y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.usage += torch.abs(gate.sum(0))  # want: TL101(medium) "after its backward"

    def fit(self, loader):
        total = 0.0
        for x, y in loader:
            out = self.model.forward(x)
            loss = out["loss"]
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss  # want: TL101(high) "after its backward"
        return total
