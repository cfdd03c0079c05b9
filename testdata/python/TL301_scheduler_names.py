"""TL301: a learning-rate scheduler named after its optimizer
(`self.optimizer_scheduler.step()`) steps once per epoch: its loop is no
training step, and a flush there runs once per epoch."""
import torch


class Runner:
    def __init__(self, model, optimizer, scheduler, loader):
        self.model = model
        self.optimizer = optimizer
        self.optimizer_scheduler = scheduler
        self.loader = loader

    def train(self, epochs):
        for epoch in range(epochs):
            self.model.train()
            torch.cuda.empty_cache()  # ok: once per epoch, before its batches
            self.optimizer_scheduler.step()
            for step, (x, y) in enumerate(self.loader):
                self.batch_forward(x.cuda())
                self.batch_loss(y.cuda())
                self.batch_backward()

    def batch_forward(self, x):
        self.logits = self.model(x)

    def batch_loss(self, y):
        self.loss = torch.nn.functional.cross_entropy(self.logits, y)

    def batch_backward(self):
        self.optimizer.zero_grad()
        self.loss.backward()
        self.optimizer.step()

    def train_flushing(self, epochs):
        for epoch in range(epochs):
            self.optimizer_scheduler.step()
            for step, (x, y) in enumerate(self.loader):
                loss = torch.nn.functional.cross_entropy(self.model(x.cuda()), y.cuda())
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                torch.cuda.empty_cache()  # want: TL301 "runs on every step of this loop"
