"""Training steps that hand their loss to objects of another file: a scaler
that back-propagates it, and a meter that only reads it."""
import util.misc as misc


def train(model, loader, optimizer, criterion):
    loss_scaler = misc.NativeScalerWithGradNormCount()
    model.eval()  # frozen batch norm statistics, trained all the same
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, parameters=model.parameters())


def validate(model, loader, criterion):
    meter = misc.LossMeter()
    model.eval()
    for x, y in loader:
        meter(criterion(model(x), y))  # want: TL201(medium) "in `validate`"
