import torch.nn as nn

from loss.losses import EdgeLoss, SoftEdgeLoss


def train(net, loader, opt):
    edge, soft = EdgeLoss(), SoftEdgeLoss()
    bce = nn.CrossEntropyLoss()
    edge_total, soft_total = 0, 0
    for image, gray, mask in loader:
        pred = net(image)
        edge_loss = edge(pred, gray)
        soft_loss = soft(pred, gray)
        loss = bce(pred, mask) + edge_loss + soft_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        edge_total += edge_loss  # ok: TL101 its loss's forward takes the argmax of the prediction: no graph
        soft_total += soft_loss  # want: TL101 "after its backward"
    return edge_total, soft_total
