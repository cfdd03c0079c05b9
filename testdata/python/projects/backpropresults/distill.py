import torch.nn.functional as F

from attribution import predict, predict_labels


def distill(student, teacher, batches, opt):
    for x in batches:
        loss = F.mse_loss(predict(student, x), teacher(x).detach())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print([predict_labels(student, x).tolist() for x in batches])
