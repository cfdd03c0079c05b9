# A `\` that continues a line inside a statement is no part of it: the
# outputs unpacked over two lines go where their names take them (here
# only to the host), not to "code whose use is not seen".
import torch


def test_all(model, loader):
    model.eval()
    for im in loader:
        rois, cls_prob, \
            loss_a, loss_b = model(im)  # want: TL201(medium) "none of which is kept"
        print(rois.data.shape, cls_prob.data.max().item())


def train_all(model, loader, opt):
    model.train()
    for im in loader:
        rois, cls_prob, \
            loss_a, loss_b = model(im)  # ok: its losses are back-propagated
        (loss_a + loss_b).backward()
        opt.step()
        opt.zero_grad()
