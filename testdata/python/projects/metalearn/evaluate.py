from learner import Learner, Scorer

learner = Learner()
scorer = Scorer()


def evaluate(tasks):
    learner.eval()
    hits = 0
    for support, labels, query, answers in tasks:
        logits = learner(support, labels, query)  # ok: its forward adapts with torch.autograd.grad, which needs grad
        hits += (logits.argmax(1) == answers).sum().item()
    return hits


def score(tasks):
    scorer.eval()
    hits = 0
    for _, _, query, answers in tasks:
        logits = scorer(query)  # want: TL201 "forward pass with grad enabled"
        hits += (logits.argmax(1) == answers).sum().item()
    return hits
