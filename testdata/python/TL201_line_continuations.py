# A `\` that continues a line inside a statement is no part of it: the
# outputs unpacked over two lines go where their names take them (here
# only to the host), not to "code whose use is not seen".
import torch


def test_all(model, loader):
    model.eval()
    for im in loader:
        rois, cls_prob, \
            loss_a, loss_b = model(im)  # want: TL201(medium) "`rois` holds the outputs, and the graph with them"
        print(rois.data.shape, cls_prob.data.max().item())


def train_all(model, loader, opt):
    model.train()
    for im in loader:
        rois, cls_prob, \
            loss_a, loss_b = model(im)  # ok: its losses are back-propagated
        (loss_a + loss_b).backward()
        opt.step()
        opt.zero_grad()


def test_hidden(model, loader, hidden):
    # A count from `enumerate` carries nothing of what it counts, and a
    # comprehension's elements go where its expression takes them.
    model.eval()
    for x in loader:
        out, hidden = model(x, hidden)  # want: TL201(medium) "although nothing back-propagates"
        hidden = tuple([h.data for h in hidden])
        for i, row in enumerate(out):
            print(i, row.data.argmax().item())


def adapt(model, loader, opt):
    # Test-time adaptation: through the comprehension, every row's loss
    # is back-propagated.
    model.eval()
    for x in loader:
        out = model(x)  # ok: its rows' losses are back-propagated
        losses = [row.sum() for row in out]
        opt.zero_grad()
        torch.stack(losses).sum().backward()
        opt.step()
