"""TL103: a loss taken in chunks of one output made before the loop: each
chunk's backward runs through that output's graph again, so all but the
last need retain_graph=True. A loop that slices its batches out of a
dataset held in memory, and runs its own forward pass, builds its graph
afresh each step."""


class Trainer:
    def batch_loss_backward(self, criterion, hyp, gold, step=4):
        hyp = hyp.view(-1, hyp.size(2))
        gold = gold.contiguous().view(-1)
        total = hyp.size(0)
        batch_loss = 0
        for i in range(0, total, step):
            bound = i + step if (i + step) < total else total
            loss = criterion(hyp[i:bound], gold[i:bound])
            loss /= total
            loss.backward(retain_graph=True)  # ok: the next chunk runs through hyp's graph again
            batch_loss += loss.data[0]
        return batch_loss


def train_in_memory(model, optimizer, criterion, X, Y, bs=32):
    for i in range(0, len(X), bs):
        x, y = X[i:i + bs], Y[i:i + bs]
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)  # want: TL103 "retain_graph=True"
        optimizer.step()
