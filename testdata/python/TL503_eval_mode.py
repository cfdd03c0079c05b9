"""Training loops that switch their model to evaluation mode and never
back, against loops that switch back, evaluate another model, or stop."""
import copy

import torch


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    return correct


def evaluate_restoring(model, loader):
    model.eval()
    with torch.no_grad():
        loss = sum(torch.nn.functional.cross_entropy(model(x), y) for x, y in loader)
    model.train()
    return loss


def train_one_epoch(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


def fit(model, train_loader, val_loader, optimizer, criterion, epochs):
    model.train()
    for epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        evaluate(model, val_loader)  # want: TL503 "switches `model` to evaluation mode \(`model.eval\(\)`, TL503_eval_mode.py:9\)"


def fit_inline(net, loader, val_loader, opt, crit, eval_every):
    net.train()
    for step, (x, y) in enumerate(loader):
        opt.zero_grad()
        crit(net(x), y).backward()
        opt.step()
        if step % eval_every == 0:
            net.eval()  # want: TL503 "call `net.train\(\)` after it"
            with torch.no_grad():
                print(sum(crit(net(v), w) for v, w in val_loader))


def fit_train_switched_back(model, train_loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        evaluate(model, val_loader)  # ok: the epoch loop switches back to train() at its top


def fit_with_helper(model, train_loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        train_one_epoch(model, train_loader, optimizer, criterion)
        evaluate(model, val_loader)  # ok: train_one_epoch switches the model back


def fit_restoring(model, train_loader, val_loader, optimizer, criterion):
    model.train()
    for step, (x, y) in enumerate(train_loader):
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        if step % 500 == 0:
            evaluate_restoring(model, val_loader)  # ok: the function restores training mode


def fit_ema(model, loader, optimizer, criterion, val_loader):
    ema = copy.deepcopy(model)
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        ema.eval()  # ok: the EMA copy is not the model this loop trains
        evaluate(ema, val_loader)  # ok: nor here
        evaluate(model=ema, loader=val_loader)  # ok: nor when passed by keyword


def fit_until(model, loader, val_loader, optimizer, criterion, target):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        if criterion(model(x), y).item() < target:  # want: TL201 "only reach the host"
            evaluate(model, val_loader)  # ok: the loop stops right after
            break


def fit_then_exit(model, loader, val_loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        evaluate(model, val_loader)  # ok: the process ends right after
        exit()


def evaluate_all(models, loader):
    for model in models:
        model.eval()  # ok: a loop over models that trains none of them
        evaluate(model, loader)


class Trainer:
    def __init__(self, model, optimizer, loaders):
        self.model = model
        self.optimizer = optimizer
        self.loaders = loaders

    def validate(self):
        self.model.eval()
        with torch.no_grad():
            return [self.model(x) for x, _ in self.loaders["val"]]

    def fit(self, epochs):
        self.model.train()
        for epoch in range(epochs):
            for x, y in self.loaders["train"]:
                self.optimizer.zero_grad()
                torch.nn.functional.mse_loss(self.model(x), y).backward()
                self.optimizer.step()
            self.validate()  # want: TL503 "switches `self.model` to evaluation mode"

    def fit_fixed(self, epochs):
        for epoch in range(epochs):
            self.model.train()
            for x, y in self.loaders["train"]:
                self.optimizer.zero_grad()
                torch.nn.functional.mse_loss(self.model(x), y).backward()
                self.optimizer.step()
            self.validate()  # ok: switched back at the top of each epoch


class Regressor(torch.nn.Module):
    """Has dropout: evaluation mode changes what it computes."""

    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Dropout(0.2))
        self.head = torch.nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.body(x))


class Plain(torch.nn.Module):
    """Linear layers and activations only: evaluation mode changes nothing."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 32)
        self.fc2 = torch.nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def validate(loader, net):
    net.eval()
    with torch.no_grad():
        return [net(x) for x, _ in loader]


def fit_regressor(loader, val_loader, epochs):
    model = Regressor().to("cuda")
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
        validate(loader, model)  # want: TL503 "switches `model` to evaluation mode \(`net.eval\(\)`.*: dropout stops dropping"


def fit_plain(loader, val_loader, epochs):
    model = Plain().to("cuda")
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
        validate(loader, model)  # ok: Plain has no layer that evaluation mode changes


def fit_unknown(model, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
        validate(val_loader, model)  # want: TL503 "switches `model` to evaluation mode.*, if the model has either"


def fit_validate_first(model, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        model.eval()  # want: TL503 "switches `model` to evaluation mode"
        with torch.no_grad():
            print(sum(model(x).sum() for x, _ in val_loader))
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def probe_epoch(loader, backbone, optimizer):
    # A linear probe: the frozen backbone's batch norm keeps its
    # statistics, and only the head in the optimizer learns.
    backbone.eval()
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(backbone(x), y).backward()
        optimizer.step()


def fit_probe(backbone, loader, val_loader, optimizer, epochs):
    for epoch in range(epochs):
        probe_epoch(loader, backbone, optimizer)  # ok: it trains in evaluation mode on purpose
        validate(val_loader, backbone)  # ok: probe_epoch switches to evaluation mode itself


def fit_probe_inline(backbone, loader, optimizer, epochs):
    for epoch in range(epochs):
        backbone.eval()  # ok: set on purpose before every training step of the epoch
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(backbone(x), y).backward()
            optimizer.step()


def fit_ema_no_grad(model, loader, optimizer, decay):
    ema = copy.deepcopy(model)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        with torch.no_grad():
            for e, p in zip(ema.parameters(), model.parameters()):
                e.mul_(decay).add_(p, alpha=1 - decay)
            ema.eval()  # ok: the EMA copy is only run without gradients
            print(ema(x).mean())


def fit_perceptual(generator, vgg, loader):
    optimizer = torch.optim.Adam(generator.parameters(), lr=1e-4)
    for x, y in loader:
        vgg.eval()  # ok: vgg is in no optimizer: it is a fixed feature extractor
        optimizer.zero_grad()
        fake = generator(x)
        torch.nn.functional.l1_loss(vgg(fake), vgg(y)).backward()
        optimizer.step()


def fit_distill(student, loader, optimizer):
    teacher = copy.deepcopy(student)
    for x, y in loader:
        optimizer.zero_grad()
        target = teacher(x).detach()
        teacher.eval()  # ok: a frozen copy, which no optimizer steps
        torch.nn.functional.mse_loss(student(x), target).backward()
        optimizer.step()


# A loop at module level, with its optimizer built there too.
script_model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Dropout(0.5))
script_opt = torch.optim.SGD(script_model.parameters(), lr=0.1)
for step in range(10):
    batch = torch.randn(4, 8)
    script_opt.zero_grad()
    script_model(batch).sum().backward()
    script_opt.step()
    script_model.eval()  # want: TL503 "later steps of this loop train in evaluation mode"
    print(script_model(batch).sum().item())  # want: TL201


def count_ops(model, x):
    model = copy.deepcopy(model)
    counted = model
    counted.eval()
    with torch.no_grad():
        return counted(x).numel()


def set_eval(model):
    model.eval()


def train_counting(model, loader, optimizer):
    model.train()
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        count_ops(model, x)  # ok: it switches a copy; `model` keeps training mode


def train_switching(model, loader, optimizer):
    model.train()
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        set_eval(model)  # want: TL503 "switches `model` to evaluation mode"


vae = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
critic = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
vae_opt = torch.optim.Adam(vae.parameters())


def sample_vae(epoch):
    vae.eval()
    with torch.no_grad():
        torch.save(vae(torch.randn(8, 4)), f"fake_{epoch}.pt")


def sample_critic(epoch):
    critic.eval()
    with torch.no_grad():
        torch.save(critic(torch.randn(8, 4)), f"critic_{epoch}.pt")


def sample_and_back(epoch):
    vae.eval()
    with torch.no_grad():
        torch.save(vae(torch.randn(8, 4)), f"fake_{epoch}.pt")
    vae.train()


def train_vae(epoch, loader):
    vae.train()
    for i, x in enumerate(loader):
        vae_opt.zero_grad()
        vae(x).pow(2).mean().backward()
        vae_opt.step()
        if i % 100 == 0:
            sample_vae(epoch)  # want: TL503 "switches `vae` to evaluation mode \(`vae.eval\(\)`"
            sample_critic(epoch)  # ok: a global the loop does not train


def train_vae_back(epoch, loader):
    vae.train()
    for i, x in enumerate(loader):
        vae_opt.zero_grad()
        vae(x).pow(2).mean().backward()
        vae_opt.step()
        if i % 100 == 0:
            sample_and_back(epoch)  # ok: switches it back


class PlainNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


def train_new_head(loader):
    model = PlainNet()
    model.fc = torch.nn.Sequential(torch.nn.Dropout(0.5), torch.nn.Linear(4, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        evaluate(model, [(x, y)])  # want: TL503 "dropout stops dropping and batch norm uses, and stops updating, its running statistics;"


def train_plain_net(loader):
    model = PlainNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        evaluate(model, [(x, y)])  # ok: no layer that evaluation mode changes


def train_validating_last(model, loader, val_loader, optimizer, epochs):
    for _ in range(epochs):
        model.train()
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
            if i == len(loader) - 1:
                evaluate(model, val_loader)  # ok: the last step of the epoch, whose loop switches back at its top


def train_validating_last_once(model, loader, val_loader, optimizer, epochs):
    model.train()
    for _ in range(epochs):
        for i, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
            if i == len(loader) - 1:
                evaluate(model, val_loader)  # want: TL503 "switches `model` to evaluation mode"
