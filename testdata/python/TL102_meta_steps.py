"""TL102: what a meta-learning inner loop keeps is not kept across steps.
Fast weights rewritten in the same slots on every inner step hold one
step's graphs; lists filled over meta-paths, in a loop whose only
derivatives are taken to be differentiated again (`create_graph=True`),
are one task's forward pass, stacked into the loss its caller
back-propagates. The outputs of first-order MAML's inner loop, in a list
made afresh for each outer step whose backward runs through them, are
that step's graphs alone. The indices of a max carry no graph. A slot
named by the step, or by a counter the loop moves, keeps one graph per
step; a list made once per epoch and filled by a loop of steps, each
back-propagated, keeps one per step of the epoch."""
import torch
import torch.nn.functional as F


class Learner:
    def __init__(self, model, names, paths):
        self.model = model
        self.names = names
        self.paths = paths
        self.fast_weights = {}
        self.buffer = [None] * 100
        self.ptr = 0

    def local_update(self, x, y, steps):
        for step in range(steps):
            weights = list(self.model.parameters())
            loss = F.mse_loss(self.model(x), y)
            grad = torch.autograd.grad(loss, weights, create_graph=True)
            for i in range(len(self.names)):
                self.fast_weights[self.names[i]] = weights[i] - 0.01 * grad[i]  # ok: the same slots each step

    def adapt(self, emb, y, weights):
        loss = F.mse_loss(emb, y)
        grad = torch.autograd.grad(loss, weights, create_graph=True)
        return [w - 0.01 * g for w, g in zip(weights, grad)]

    def meta_loss(self, x, y, xq, yq):
        embeddings, fast = [], {}
        for path in self.paths:
            weights = list(self.model.parameters())
            loss = F.mse_loss(self.model(x), y)
            grad = torch.autograd.grad(loss, weights, create_graph=True)
            for _ in range(3):
                loss = F.mse_loss(self.model(x), y)
                grad = torch.autograd.grad(loss, weights, create_graph=True)
                weights = [w - 0.01 * g for w, g in zip(weights, grad)]
            emb = self.model(xq)
            embeddings.append(emb)  # ok: one task's forward pass, stacked below
            fast[path] = self.adapt(emb, yq, weights)  # ok: the same
        return F.mse_loss(torch.stack(embeddings).mean(0), yq)

    def fit(self, loader, optimizer):
        history, predictions = {}, []
        for epoch, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            out = self.model(x)
            loss = F.mse_loss(out, y)
            loss.backward()
            optimizer.step()
            predictions.append(torch.max(out, 1).indices)  # ok: indices carry no graph
            history[epoch] = loss  # want: TL102(high) "keeps each step's autograd graph reachable after its backward"

    def collect(self, loader, optimizer):
        for x, y in loader:
            optimizer.zero_grad()
            out = self.model(x)
            F.mse_loss(out, y).backward()
            optimizer.step()
            self.buffer[self.ptr] = out  # want: TL102(high) "keeps each step's autograd graph reachable after its backward"
            self.ptr = (self.ptr + 1) % 100

    def record(self, loader, optimizer, table):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            out = self.model(x)
            F.mse_loss(out, y).backward()
            optimizer.step()
            table[:, step] = out.mean(0)  # want: TL102(high) "keeps each step's autograd graph reachable after its backward"

    def meta_fit(self, tasks, inner_opt, meta_opt, meta_steps, state):
        for _ in range(meta_steps):
            meta_loss = 0
            outputs = []
            for (x, y), (xq, yq) in tasks:
                inner_opt.zero_grad()
                F.mse_loss(self.model(x), y).backward()
                inner_opt.step()
                out = self.model(xq)
                outputs.append(out)  # ok: back-propagated by this outer step's backward, made afresh for the next
                meta_loss += F.mse_loss(out, yq)
                self.model.load_state_dict(state)
            meta_opt.zero_grad()
            meta_loss.backward()
            meta_opt.step()

    def epoch_outputs(self, loader, optimizer, epochs):
        for _ in range(epochs):
            outputs = []
            for x, y in loader:
                optimizer.zero_grad()
                out = self.model(x)
                F.mse_loss(out, y).backward()
                optimizer.step()
                outputs.append(out)  # want: TL102 "keeps each step's autograd graph reachable after its backward"
            print(len(outputs))

    def epoch_with_anchor(self, loader, optimizer, anchor, epochs):
        for _ in range(epochs):
            losses = []
            for x, y in loader:
                optimizer.zero_grad()
                loss = F.mse_loss(self.model(x), y)
                loss.backward()
                optimizer.step()
                losses.append(loss)  # want: TL102 "keeps each step's autograd graph reachable after its backward"
            # One more step on an anchor batch: its loss is a new tensor.
            loss = F.mse_loss(self.model(anchor[0]), anchor[1])
            loss.backward()
            optimizer.step()

    def meta_fit_validated(self, tasks, inner_opt, meta_opt, meta_steps, state, val_x):
        for _ in range(meta_steps):
            meta_loss = 0
            outputs = []
            for (x, y), (xq, yq) in tasks:
                inner_opt.zero_grad()
                F.mse_loss(self.model(x), y).backward()
                inner_opt.step()
                out = self.model(xq)
                outputs.append(out)  # ok: back-propagated by this outer step's backward; `out` named again after it
                meta_loss += F.mse_loss(out, yq)
                self.model.load_state_dict(state)
            meta_opt.zero_grad()
            meta_loss.backward()
            meta_opt.step()
            with torch.no_grad():
                out = self.model(val_x)
            print(out.mean().item())
