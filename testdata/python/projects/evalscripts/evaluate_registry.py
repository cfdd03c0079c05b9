from registry import get_model


def evaluate(batches):
    model = get_model("lm", 4)  # ok: builds the model, runs no forward pass
    model.eval()
    for batch in batches:
        print(model(batch).argmax(1))  # want: TL201 "in `evaluate`"
