export async function render(main) {
  main.textContent = '…';
}
