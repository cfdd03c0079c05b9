# A model whose parameters are all frozen records no graph on inputs that
# need none; one frozen and then given a new head (transfer learning),
# frozen only in part, or partly thawed again, has parameters to train,
# and its evaluation without no_grad records the graph of that part.
import torch
import torch.nn as nn
import torchvision


def features(loader):
    backbone = torchvision.models.resnet18(weights="DEFAULT")
    for param in backbone.parameters():
        param.requires_grad = False
    backbone.fc = nn.Identity()
    backbone.eval()
    return [backbone(x).tolist() for x in loader]  # ok: TL201 every parameter frozen; the new head has none


def frozen_after(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.fc = nn.Linear(512, 10)
    for param in model.parameters():
        param.requires_grad = False
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 the new head is frozen with the rest


def fine_tuned(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    for param in model.parameters():
        param.requires_grad = False
    model.fc = nn.Linear(512, 10)
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"


def head_replaced(loader):
    net = torchvision.models.vgg16(weights="DEFAULT")
    for p in net.parameters():
        p.requires_grad = False
    net.classifier[6] = nn.Linear(4096, 5).to("cpu")
    net.eval()
    return [net(x).argmax(1).tolist() for x in loader]  # want: TL201 "net\(x\)"


def partly_frozen(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    for name, param in model.named_parameters():
        if name.startswith("layer"):
            param.requires_grad = False
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"


def thawed_head(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    model.fc.requires_grad_(True)
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"


def predict(model, images):
    model.eval()
    return [model(x).argmax(1).tolist() for x in images]  # want: TL201 "model\(x\)"


def train_then_predict(loader, images):
    model = torchvision.models.resnet18(weights="DEFAULT")
    for param in model.parameters():
        param.requires_grad = False
    model.fc = nn.Linear(512, 10)
    opt = torch.optim.Adam(model.fc.parameters())
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return predict(model, images)


def thawed_by_loop(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    for p in model.parameters():
        p.requires_grad = False
    for p in model.fc.parameters():
        p.requires_grad = True
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"


def skipped_head(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    for name, p in model.named_parameters():
        if name.startswith("fc"):
            continue
        p.requires_grad = False
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"


def head_frozen_too(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    model.fc = nn.Linear(512, 10).requires_grad_(False)
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 the new head is built frozen


def frozen_again(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    model.fc = nn.Linear(512, 10)
    for p in model.fc.parameters():
        p.requires_grad = False
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 the new head is frozen after


def baseline_then_head(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    model.eval()
    preds = [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 frozen still, the head comes after
    model.fc = nn.Linear(512, 10)
    return preds, model


def noted(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    model.device = torch.device("cpu")
    model.classes = list(range(10))
    model.fc = nn.Sequential(nn.Flatten(), nn.Identity())
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 no new parameter


def freeze_all(model):
    for parameter in model.parameters():
        parameter.requires_grad = False


def predict_all(model, loader):
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # ok: TL201 frozen by `freeze_all`, its head dropped


def head_then_features(train, loader):
    # Frozen by a helper, given a head that is trained, then the head
    # dropped: the frozen rest extracts features.
    model = torchvision.models.alexnet(weights="DEFAULT")
    freeze_all(model)
    model.classifier[6] = nn.Linear(4096, 3)
    train(model)
    model.classifier[6] = nn.Identity()
    return predict_all(model, loader)


def feature_extractor(model, loader):
    model.eval()
    return [model(x).cpu() for x in loader]  # want: TL201 "after `model.eval\(\)`"


def head_kept(train, loader):
    model = torchvision.models.alexnet(weights="DEFAULT")
    freeze_all(model)
    model.classifier[6] = nn.Linear(4096, 3)
    train(model)
    return feature_extractor(model, loader)


def frozen_through_a_name(loader):
    backbone = torchvision.models.resnet18(weights="DEFAULT")
    params = backbone.parameters()
    for param in params:
        param.requires_grad = False
    backbone.eval()
    return [backbone(x).tolist() for x in loader]  # ok: TL201 every parameter frozen, through the name of the list


def another_models_parameters(loader):
    backbone = torchvision.models.resnet18(weights="DEFAULT")
    head = nn.Linear(1000, 10)
    params = head.parameters()
    for param in params:
        param.requires_grad = False
    backbone.eval()
    return [backbone(x).tolist() for x in loader]  # want: TL201 "backbone\(x\)"


def thawed_through_a_name(loader):
    model = torchvision.models.resnet18(weights="DEFAULT")
    model.requires_grad_(False)
    head = model.fc.parameters()
    for p in head:
        p.requires_grad = True
    model.eval()
    return [model(x).argmax(1).tolist() for x in loader]  # want: TL201 "model\(x\)"
