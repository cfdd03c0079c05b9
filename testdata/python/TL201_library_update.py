"""TL201: a loss handed with its model to a function of another library
(torchmeta's `gradient_update_parameters`, a meta-learning inner step)
is differentiated there: the evaluation's adaptation needs its graph. A
loss handed to a logging library alone is not."""
import torch
from mlflow import log_metric
from torchmeta.utils import gradient_update_parameters


class MetaLearner:
    def __init__(self, model, loss_function):
        self.model = model
        self.loss_function = loss_function

    def adapt(self, inputs, targets, steps=1):
        params = None
        for _ in range(steps):
            logits = self.model(inputs, params=params)
            inner_loss = self.loss_function(logits, targets)
            self.model.zero_grad()
            params = gradient_update_parameters(self.model, inner_loss, params=params)
        return params

    def outer_loss(self, task):
        support, support_targets, query, query_targets = task
        params = self.adapt(support, support_targets)
        with torch.set_grad_enabled(self.model.training):
            loss = self.loss_function(self.model(query, params=params), query_targets)
        return loss, loss.item()

    def evaluate(self, tasks):
        self.model.eval()
        losses = []
        for task in tasks:
            _, value = self.outer_loss(task)  # ok: the inner step differentiates the adaptation's loss
            losses.append(value)
        return losses

    def score(self, batches):
        self.model.eval()
        for inputs, targets in batches:
            loss = self.loss_function(self.model(inputs), targets)  # want: TL201
            log_metric("loss", loss.item())
