import torch
# fixture-preview: TL403

# A project template: the placeholders are filled in before it runs.
MODEL = {{ cookiecutter.model_class }}  # a set of a set: valid Python, silent
{% if cookiecutter.use_cuda %}  # want: TL001 "invalid syntax"
device = torch.device("cuda")
{% else %}
device = torch.device("cpu")
{% endif %}


def load(path):
    return torch.load(path)  # want: TL403
