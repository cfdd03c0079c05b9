import torch

from model import Classifier, Ranker


def train_ranker(loader, epochs):
    model = Ranker(100, 8, 1e-4)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        loss, mf_loss, emb_loss = 0.0, 0.0, 0.0
        for u, i, j in loader:
            ue, ie, je = model(u, i, j)
            batch_loss, batch_mf, batch_emb = model.bpr_loss(ue, ie, je)
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            loss += batch_loss  # want: TL101 "`loss \+= batch_loss`"
            mf_loss += batch_mf  # want: TL101 "`mf_loss \+= batch_mf`"
            emb_loss += batch_emb  # want: TL101 "`emb_loss \+= batch_emb`"
        print(float(loss), float(mf_loss), float(emb_loss))


def train_classifier(loader, epochs):
    model = Classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        total_acc, seen = 0.0, 0
        for x, y in loader:
            loss, acc, n = model.loss_and_metrics(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_acc += acc  # ok: an accuracy, through argmax: no graph
            seen += n  # ok: a count
        print(total_acc / seen)
