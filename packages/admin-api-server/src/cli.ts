console.log('todo');
