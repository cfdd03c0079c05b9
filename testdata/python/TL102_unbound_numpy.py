"""TL102: a script whose `np` and model another cell or file made (a
notebook exported cell by cell): a store into an array `np.zeros` makes
is a float, not the graph; a store into a list keeps the graph."""
EPOCHS = 10
loss_list = np.zeros((EPOCHS,))  # noqa: F821
losses = []

for epoch in range(EPOCHS):
    y_pred = model(train_data)  # noqa: F821
    loss = loss_fn(y_pred, train_label)  # noqa: F821
    loss_list[epoch] = loss  # ok: numpy's array keeps a float
    losses.append(loss)  # want: TL102 "keeps each step's autograd graph reachable after its backward"
    optimizer.zero_grad()  # noqa: F821
    loss.backward()
    optimizer.step()  # noqa: F821
