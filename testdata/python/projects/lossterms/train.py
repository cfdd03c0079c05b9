"""The values a method named for its loss returns beside it are the terms
of that loss, scalars: reading them on the host is one more wait, not a
copy that waits anyway."""


def train(model, dataloader, optimizer):
    sum_loss = 0.0
    sum_reg = 0.0
    for u, i in dataloader:
        optimizer.zero_grad()
        loss, model_loss, reg_loss = model.loss(u, i)
        loss.backward()
        optimizer.step()
        sum_loss += loss.cpu().item()  # want: TL501 "makes the host wait"
        sum_reg += reg_loss.cpu().item()
    return sum_loss
